import type { ServiceBroker } from "moleculer";
import { computedView } from "./computed";
import type { RevisionDoc } from "./models";
import type { PageNode } from "./revisions/tree";

const at = "2026-01-01T00:00:00.000Z";
const page = (id: string, path: string, extra: Partial<PageNode> = {}): PageNode => ({ id, type: "document", title: id, slug: path.split("/").pop()!, path, createdAt: at, updatedAt: at, pages: [], ...extra });
const computed = (spec: string) => ({ type: "builtin:openapi" as const, dependencies: { spec: { ref: { kind: "openapi" as const, spec } } }, props: { models: false } });
const revision = (pages: PageNode[]): RevisionDoc => ({ id: `r-${Math.random()}`, spaceId: "s1", parents: [], type: "edits", pages, files: [], reusableContents: [], variables: {}, createdAt: at });

function fakeBroker(answers: Record<string, unknown>) {
  const calls: string[] = [];
  const broker = {
    logger: { warn: () => undefined },
    async call(_action: string, params: { slug: string }) {
      calls.push(params.slug);
      const answer = answers[params.slug];
      if (answer instanceof Error) throw answer;
      return answer ?? null;
    },
  };
  return { broker: broker as unknown as ServiceBroker, calls };
}

describe("computedView", () => {
  test("a revision without computed pages is left as it is, without asking openapi", async () => {
    const { broker, calls } = fakeBroker({});
    expect(await computedView(broker, "o1", revision([page("a", "a")]))).toBeNull();
    expect(calls).toEqual([]);
  });

  test("a computed page gets the overview as body and one child per rendered page, after its stored children", async () => {
    const { broker } = fakeBroker({
      pets: { spec: { id: "sp", slug: "pets", lastVersion: "v1" }, markdown: "Overview", pages: [{ slug: "pets", title: "pets", markdown: "## Get" }, { slug: "own", title: "Own", markdown: "x" }] },
    });
    const stored = page("api", "api", { computed: computed("pets"), documentId: "doc1", pages: [page("own", "api/own")] });
    const view = (await computedView(broker, "o1", revision([stored])))!;
    const api = view.revision.pages[0];
    expect(api.computed).toBeUndefined();
    expect(api.documentId).toBeUndefined();
    expect(api.pages.map((p) => [p.id, p.path])).toEqual([["own", "api/own"], ["api-pets", "api/pets"], ["api-own-2", "api/own-2"]]);
    expect(view.bodies.get("api")).toBe("Overview");
    expect(view.bodies.get("api-pets")).toBe("## Get");
    expect(view.index.get("api-own-2")?.title).toBe("Own");
    expect(view.variant).toBe("computed:pets:v1");
  });

  test("a missing spec or an openapi service that does not answer gives a placeholder, never an error", async () => {
    const { broker } = fakeBroker({ down: new Error("Service 'openapi.renderSpecPages' is not found.") });
    const view = (await computedView(broker, "o2", revision([page("m", "m", { computed: computed("nope") }), page("d", "d", { computed: computed("down") })])))!;
    expect(view.bodies.get("m")).toContain("`nope` does not exist");
    expect(view.bodies.get("d")).toContain("could not be read right now");
    expect(view.revision.pages.map((p) => p.pages.length)).toEqual([0, 0]);
  });
});
