import { markdownSections } from "./sections";

describe("markdownSections", () => {
  test("the text before the first heading, then one section per heading with its body", () => {
    expect(markdownSections("Welcome.\n\n## Install\nRun it.\n### On Linux\nUse apt.")).toEqual([
      { level: 0, title: "", anchor: "", body: "Welcome.\n" },
      { level: 2, title: "Install", anchor: "install", body: "Run it." },
      { level: 3, title: "On Linux", anchor: "on-linux", body: "Use apt." },
    ]);
  });

  test("a setext heading is a section with an anchor, like an ATX one", () => {
    const sections = markdownSections("Intro\n\nGetting Started\n===============\nFirst steps.\n\nNext part\n---------\nMore.");
    expect(sections.map(({ level, title, anchor }) => ({ level, title, anchor }))).toEqual([
      { level: 0, title: "", anchor: "" },
      { level: 1, title: "Getting Started", anchor: "getting-started" },
      { level: 2, title: "Next part", anchor: "next-part" },
    ]);
    expect(sections[1].body).toBe("First steps.\n");
  });

  test("lines that look like headings inside code are not headings", () => {
    const sections = markdownSections("## Script\n```bash\n# not a heading\n```\n\n    # indented code\nafter");
    expect(sections.map((s) => s.title)).toEqual(["", "Script"]);
    expect(sections[1].body).toContain("# not a heading");
  });

  test("anchors are the site's: markup dropped, repeats numbered", () => {
    const anchors = markdownSections("## The `safeFetch` [API](api.md) ##\n## Usage\n## Usage\n#\n").map((s) => [s.title, s.anchor]);
    expect(anchors).toEqual([
      ["", ""],
      ["The safeFetch API", "the-safefetch-api"],
      ["Usage", "usage"],
      ["Usage", "usage-1"],
      ["", "section"],
    ]);
  });

  test("front matter is no section (its closing line is no setext underline)", () => {
    const sections = markdownSections("---\ndescription: Intro\n---\n\n# Title\nBody");
    expect(sections).toEqual([
      { level: 0, title: "", anchor: "", body: "" },
      { level: 1, title: "Title", anchor: "title", body: "Body" },
    ]);
  });

  test("an empty page is one empty section", () => {
    expect(markdownSections("")).toEqual([{ level: 0, title: "", anchor: "", body: "" }]);
  });
});
