import { linkReport } from "./links";
import { applyChanges } from "./tree";

const NOW = "2026-01-01T00:00:00.000Z";

describe("linkReport", () => {
  const content = applyChanges(
    { pages: [], files: [], reusableContents: [], variables: {} },
    [
      { type: "insert_page", id: "a", markdown: "# A\n[b](b.md) [b again](./b.md) [gone](gone.md) [app](https://docs.example/s/x) [web](https://nodejs.org) [mail](mailto:x@y.z) [top](#top) ![logo](.gitbook/assets/logo.png)" },
      { type: "insert_page", id: "b", markdown: "# B\n[a](a.md) [gone](gone.md)" },
      { type: "insert_file", id: "f", name: "logo.png", contentType: "image/png", size: 1, sha256: "s" },
    ],
    NOW,
  );
  const bodies = new Map([...content.documents.entries()]);
  const markdownOf = (page: { documentId?: string }) => (page.documentId ? bodies.get(page.documentId) : undefined);

  test("groups links by target and counts every link", () => {
    const report = linkReport(content.pages, content.files, markdownOf, "https://docs.example/s");
    const byId = Object.fromEntries(report.items.map((i) => [i.id, i]));
    expect(byId["page:b"]).toMatchObject({ status: "ok", from: ["a"] });
    expect(byId["url:gone.md"]).toMatchObject({ status: "broken", from: ["a", "b"] });
    expect(byId["url:https://docs.example/s/x"].status).toBe("in-app");
    expect(byId["url:https://nodejs.org"].status).toBe("ok");
    expect(byId["file:f"]).toMatchObject({ status: "ok", from: ["a"] });
    expect(report.stats).toEqual({ total: 8, broken: { total: 2 } });
  });

  test("a page's report covers only that page", () => {
    const report = linkReport(content.pages, content.files, markdownOf, "https://docs.example/s", "b");
    expect(report.stats).toEqual({ total: 2, broken: { total: 1 } });
  });
});
