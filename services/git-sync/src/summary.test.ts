import { buildSummary, parseSummary as parseWithTargets, type SummaryItem } from "./summary";

/** The tree without the targets as written (tested on their own below). */
function parseSummary(text: string): SummaryItem[] {
  const strip = (items: SummaryItem[]): SummaryItem[] => items.map(({ target: _target, ...item }) => ({ ...item, children: strip(item.children) }));
  return strip(parseWithTargets(text));
}

describe("SUMMARY.md", () => {
  it("reads pages, nested children and ## groups, with link text as the title", () => {
    const tree = parseSummary(
      [
        "# Table of contents",
        "",
        "* [Introduction](README.md)",
        "* [Guide](guide/README.md)",
        "  * [Install](guide/install.md#top)",
        "    * [On Linux](guide/install/linux.md)",
        "  * [Configure](<guide/configure me.md>)",
        "",
        "## API",
        "",
        "- [Endpoints](api/endpoints.md)",
        "- Plain item",
      ].join("\n"),
    );
    expect(tree).toEqual([
      { title: "Introduction", href: "README.md", children: [] },
      {
        title: "Guide",
        href: "guide/README.md",
        children: [
          { title: "Install", href: "guide/install.md", children: [{ title: "On Linux", href: "guide/install/linux.md", children: [] }] },
          { title: "Configure", href: "guide/configure me.md", children: [] },
        ],
      },
      {
        title: "API",
        group: true,
        children: [
          { title: "Endpoints", href: "api/endpoints.md", children: [] },
          { title: "Plain item", children: [] },
        ],
      },
    ]);
  });

  it("decodes percent-encoded links and unescapes brackets in titles", () => {
    expect(parseSummary("* [A \\[beta\\]](a%20b.md)")).toEqual([{ title: "A [beta]", href: "a b.md", children: [] }]);
  });

  it("keeps each link target as written, and writes it back as written", () => {
    const tree = parseWithTargets("* [A](/contents/a.md)\n* [Ext](https://example.com/x#y)\n");
    expect(tree.map((i) => [i.href, i.target])).toEqual([["/contents/a.md", "/contents/a.md"], ["https://example.com/x#y", "https://example.com/x#y"]]);
    expect(buildSummary(tree)).toBe("# Table of contents\n\n* [A](/contents/a.md)\n* [Ext](https://example.com/x#y)\n");
  });

  it("writes what it reads", () => {
    const tree = [
      { title: "Intro", href: "README.md", children: [] },
      { title: "Guide [1]", href: "guide/README.md", children: [{ title: "Install", href: "guide/install me.md", children: [] }] },
      { title: "Reference", group: true, children: [{ title: "API", href: "reference/api.md", children: [] }] },
    ];
    expect(parseSummary(buildSummary(tree))).toEqual(tree);
  });
});
