import { historyPage } from "./history";

const NOW = Date.parse("2026-03-10T12:00:00.000Z");
const viewer = { userId: "u1", csrf: "c" };

describe("the history list", () => {
  test("rows newest first, change requests linked and escaped, the newest two picked for the compare form", () => {
    const out = historyPage(
      viewer,
      { id: "s1", title: "Docs" },
      "r3",
      [
        { id: "r3", createdAt: "2026-03-10T11:00:00.000Z", parent: "r2", changeRequest: { number: 7, subject: "<b>Fix</b>", createdBy: { displayName: "Ann <x>" } } },
        { id: "r2", createdAt: "2026-03-09T11:00:00.000Z", parent: "r1" },
        { id: "r1", createdAt: "2026-03-08T11:00:00.000Z" },
      ],
      undefined,
      false,
      NOW,
    );
    expect(out).toContain('<a href="/s/s1/~/changes/7">#7 &lt;b&gt;Fix&lt;/b&gt;</a>');
    expect(out).toContain("Ann &lt;x&gt;");
    expect(out).toContain("not recorded");
    expect(out).toContain('href="/s/s1/~/compare?from=r2&amp;to=r3"');
    expect(out).toContain('name="to" value="r3" id="to-0" checked');
    expect(out).toContain('name="from" value="r2" id="from-1" checked');
    expect(out).not.toContain('rel="next"');
    expect(out.indexOf("/~/revisions/r3")).toBeLessThan(out.indexOf("/~/revisions/r1"));
  });
});

describe("a page's history", () => {
  test("the page named, each row's change linked to that page's compare, paging keeping the page", () => {
    const out = historyPage(
      viewer,
      { id: "s1", title: "Docs" },
      "r9",
      [{ id: "r5", createdAt: "2026-03-10T11:00:00.000Z", parent: "r4", pageKinds: ["modified", "moved"] }],
      "r3",
      true,
      NOW,
      { id: "p1", title: "Guide <1>" },
    );
    expect(out).toContain("<h1>History of “Guide &lt;1&gt;”</h1>");
    expect(out).toContain('href="/s/s1/~/compare?from=r4&amp;to=r5&amp;page=p1">changed, moved<');
    expect(out).toContain('href="/s/s1/~/history?at=r3&amp;page=p1" rel="next"');
    expect(out).toContain('href="/s/s1/~/history?page=p1">Newest revisions</a>');
  });
});
