import Ajv from "ajv";
import addFormats from "ajv-formats";
import { presentSearchPage, presentSearchSpace } from "./present";
import type { SearchPageHit } from "./search-index";

// GitBook's published schemas are the contract for these shapes.
const spec = require("@gitbook/api/spec/openapi.json") as object;
const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
addFormats(ajv);
ajv.addSchema(spec, "gitbook");
const validate = (schema: string, body: unknown) => {
  const check = ajv.getSchema(`gitbook#/components/schemas/${schema}`)!;
  expect(check(body) ? [] : check.errors).toEqual([]);
};

const hit: SearchPageHit = {
  spaceId: "sp1",
  revisionId: "r1",
  id: "pg1",
  title: "Install",
  path: "guides/install",
  score: 3.2,
  sections: [
    { id: "pg1", title: "Install", path: "guides/install", body: "Intro" },
    { id: "docker", title: "Docker", path: "guides/install#docker", body: "Run the container" },
  ],
};

describe("search presenters", () => {
  it("shapes a page hit as GitBook's SearchPageResult with app URLs", () => {
    const page = presentSearchPage(hit, "http://docs.local");
    validate("SearchPageResult", page);
    expect(page.urls.app).toBe("http://docs.local/s/sp1/guides/install");
    expect(page.sections[1].urls.app).toBe("http://docs.local/s/sp1/guides/install#docker");
    expect(page).not.toHaveProperty("score");
  });

  it("shapes an organization search item as GitBook's SearchSpaceResult", () => {
    const space = presentSearchSpace({ id: "sp1", title: "Handbook" }, [hit], "http://docs.local");
    validate("SearchSpaceResult", space);
    expect(space).toMatchObject({ id: "sp1", title: "Handbook", pages: [{ id: "pg1" }] });
  });
});
