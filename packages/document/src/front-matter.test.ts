import { splitFrontMatter } from "./front-matter";

describe("splitFrontMatter", () => {
  test("parses the YAML between the --- lines and returns the body after it", () => {
    expect(splitFrontMatter("\uFEFF---\r\ndescription: A page\nhidden: true\r\n---\r\n\r\n# Title\n")).toEqual({
      raw: "description: A page\nhidden: true",
      data: { description: "A page", hidden: true },
      body: "# Title\n",
      block: "---\r\ndescription: A page\nhidden: true\r\n---\r\n",
    });
  });

  test("markdown without front matter is all body", () => {
    expect(splitFrontMatter("# Title\n---\n")).toEqual({ raw: null, data: null, body: "# Title\n---\n", block: null });
    expect(splitFrontMatter("---\nno closing line")).toEqual({ raw: null, data: null, body: "---\nno closing line", block: null });
  });

  test("YAML that is invalid or not a mapping gives no data but is still split off", () => {
    expect(splitFrontMatter("---\n: [\n---\nBody")).toMatchObject({ data: null, body: "Body" });
    expect(splitFrontMatter("---\n- a\n- b\n---\nBody")).toMatchObject({ raw: "- a\n- b", data: null, body: "Body" });
  });

  test("block is the front matter as written, the body's bytes follow it", () => {
    const source = "---  \ntitle: T\n...\n\n\n# Title\n";
    const split = splitFrontMatter(source);
    expect(split).toMatchObject({ raw: "title: T", data: { title: "T" }, block: "---  \ntitle: T\n...\n", body: "# Title\n" });
    expect(source.slice(split.block!.length).replace(/^(\r?\n)+/, "")).toBe(split.body);
    expect(splitFrontMatter("---\na: 1\n---")).toMatchObject({ block: "---\na: 1\n---", body: "" });
  });
});
