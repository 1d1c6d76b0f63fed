import { slugifyHeading } from "@docshelf/slugs";
import { splitIntoSections, type PageInput } from "./sections";

const page = (markdown: string, fields: Partial<PageInput> = {}): PageInput => ({ id: "p1", title: "Getting started", path: "getting-started", markdown, ...fields });

describe("splitIntoSections", () => {
  it("starts with the text before the first heading, titled with the page title", () => {
    const sections = splitIntoSections(page("Welcome aboard.\n\n## Install\nRun it.\n### On Linux\nUse apt."));
    expect(sections).toEqual([
      { anchor: "", title: "Getting started", text: "Welcome aboard." },
      { anchor: "install", title: "Install", text: "Run it." },
      { anchor: "on-linux", title: "On Linux", text: "Use apt." },
    ]);
  });

  it("ignores lines that look like headings inside fenced code", () => {
    const sections = splitIntoSections(page("## Script\n```bash\n# not a heading\necho hi\n```\nafter"));
    expect(sections.map((s) => s.title)).toEqual(["Getting started", "Script"]);
    expect(sections[1].text).toBe("not a heading\necho hi\nafter");
  });

  it("gives repeated headings unique anchors", () => {
    const anchors = splitIntoSections(page("## Usage\na\n## Usage\nb\n## Usage\nc")).map((s) => s.anchor);
    expect(anchors).toEqual(["", "usage", "usage-1", "usage-2"]);
  });

  it("uses the heading's words without markup as its title", () => {
    const [, section] = splitIntoSections(page("## The `safeFetch` [API](api.md) ##\nbody"));
    expect(section).toMatchObject({ title: "The safeFetch API", anchor: "the-safefetch-api" });
  });

  it("gives setext headings a section and the site's anchor, as ATX headings", () => {
    const sections = splitIntoSections(page("Intro\n\nInstalling\n==========\nRun it.\n\nOn Linux\n--------\nUse apt."));
    expect(sections).toEqual([
      { anchor: "", title: "Getting started", text: "Intro" },
      { anchor: "installing", title: "Installing", text: "Run it." },
      { anchor: "on-linux", title: "On Linux", text: "Use apt." },
    ]);
  });

  it("leaves front matter out of the sections and their text", () => {
    const sections = splitIntoSections(page("---\ndescription: secret words\n---\n\n## Usage\nRun it."));
    expect(sections).toEqual([
      { anchor: "", title: "Getting started", text: "" },
      { anchor: "usage", title: "Usage", text: "Run it." },
    ]);
  });

  it("keeps an empty page as one section so its title is still searchable", () => {
    expect(splitIntoSections(page(""))).toEqual([{ anchor: "", title: "Getting started", text: "" }]);
  });
});

describe("slugifyHeading", () => {
  it.each([
    ["Hello, World!", "hello-world"],
    ["  Café au lait  ", "cafe-au-lait"],
    ["API v2.1 (beta)", "api-v2-1-beta"],
    ["日本語 見出し", "日本語-見出し"],
  ])("turns %j into %j", (heading, anchor) => {
    expect(slugifyHeading(heading)).toBe(anchor);
  });
});
