import { splitFrontMatter } from "./front-matter";

describe("splitFrontMatter", () => {
  test("parses the YAML between the --- lines and returns the body after it", () => {
    expect(splitFrontMatter("\uFEFF---\r\ndescription: A page\nhidden: true\r\n---\r\n\r\n# Title\n")).toEqual({
      raw: "description: A page\nhidden: true",
      data: { description: "A page", hidden: true },
      body: "# Title\n",
    });
  });

  test("markdown without front matter is all body", () => {
    expect(splitFrontMatter("# Title\n---\n")).toEqual({ raw: null, data: null, body: "# Title\n---\n" });
    expect(splitFrontMatter("---\nno closing line")).toEqual({ raw: null, data: null, body: "---\nno closing line" });
  });

  test("YAML that is invalid or not a mapping gives no data but is still split off", () => {
    expect(splitFrontMatter("---\n: [\n---\nBody")).toMatchObject({ data: null, body: "Body" });
    expect(splitFrontMatter("---\n- a\n- b\n---\nBody")).toMatchObject({ raw: "- a\n- b", data: null, body: "Body" });
  });
});
