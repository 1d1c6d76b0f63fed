import { checkChanges } from "./change-rules";

describe("checkChanges", () => {
  test("accepts every well-formed change type", () => {
    expect(() =>
      checkChanges([
        { type: "insert_page", title: "Group", pageType: "group" },
        { type: "insert_page", title: "A", markdown: "x", layout: { width: "wide" }, variables: { v: "1" }, cover: { ref: { kind: "url", url: "https://x.y/a.png" }, yPos: 0 } },
        { type: "update_page", page: "p", emoji: null, slug: "new-slug" },
        { type: "delete_page", page: "p" },
        { type: "insert_file", name: "a.txt", contentType: "text/plain", data: "aGk=" },
        { type: "delete_file", file: "f" },
        { type: "set_variables", variables: { a: "b" } },
        { type: "upsert_reusable_content", title: "R", markdown: "m" },
        { type: "delete_reusable_content", id: "r" },
      ]),
    ).not.toThrow();
  });

  test.each([
    [{ type: "explode" }, "changes[0].type"],
    [{ type: "insert_page", icon: "i".repeat(51) }, "changes[0].icon"],
    [{ type: "insert_page", slug: "Bad Slug" }, "changes[0].slug"],
    [{ type: "insert_page", extra: 1 }, "changes[0]"],
    [{ type: "insert_page", pageType: "link" }, "changes[0].pageType"],
    [{ type: "insert_file", name: "x", contentType: "text/plain", data: "not base64!" }, "changes[0].data"],
    [{ type: "set_variables", variables: { "bad key": "x" } }, "changes[0].variables"],
    [JSON.parse('{"type": "set_variables", "variables": {"__proto__": "x"}}'), "changes[0].variables"],
  ])("refuses %j naming %s", (change, field) => {
    expect(() => checkChanges([change])).toThrow(field);
  });
});
