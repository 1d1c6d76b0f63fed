import { pageTarget, type PageSnapshot } from "./pages";

const page = (updatedAt: string, title = "Intro"): PageSnapshot => ({ id: "p1", title, path: "intro", createdAt: "2026-01-01T00:00:00.000Z", updatedAt });

describe("pageTarget", () => {
  test("a page unchanged since the comment is not outdated", () => {
    expect(pageTarget(page("2026-01-02T00:00:00.000Z"), page("2026-01-02T00:00:00.000Z"))).toMatchObject({ outdated: false });
  });

  test("a page edited after the comment is outdated and shows its current metadata", () => {
    expect(pageTarget(page("2026-01-02T00:00:00.000Z"), page("2026-01-03T00:00:00.000Z", "Renamed"))).toMatchObject({ title: "Renamed", outdated: true });
  });

  test("a page gone from the content keeps its snapshot and is outdated", () => {
    expect(pageTarget(page("2026-01-02T00:00:00.000Z"), undefined)).toMatchObject({ title: "Intro", outdated: true });
  });
});
