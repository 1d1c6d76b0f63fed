import type { SemanticChange } from "@docshelf/contracts/content";
import { pageChanges, pageConflicts } from "./conflicts";

const page = (id: string) => ({ id, title: id.toUpperCase(), path: id, type: "document" as const });

describe("page changes and conflicts", () => {
  test("semantic changes group by page: added, removed, modified, moved", () => {
    const changes: SemanticChange[] = [
      { type: "page_created", page: page("n") },
      { type: "page_deleted", page: page("gone") },
      { type: "page_edited", page: page("e"), attributes: { document: { before: "d1", after: "d2" } } },
      { type: "page_moved", page: page("e"), parent: { after: page("n") } },
      { type: "file_created", file: { id: "f" } },
    ];
    const pages = pageChanges(changes);
    expect(pages.map((p) => [p.id, p.kinds])).toEqual([
      ["n", ["added"]],
      ["gone", ["removed"]],
      ["e", ["modified", "moved"]],
    ]);
  });
  test("a page changed on both sides differently, or deleted on one and changed on the other, conflicts; the same change does not", () => {
    const ours = pageChanges([
      { type: "page_edited", page: page("a"), attributes: { document: { before: "1", after: "2" } } },
      { type: "page_edited", page: page("same"), attributes: { title: { before: "x", after: "y" } } },
      { type: "page_deleted", page: page("d") },
      { type: "page_deleted", page: page("both") },
      { type: "page_moved", page: page("m"), parent: { after: page("p") } },
    ]);
    const theirs = pageChanges([
      { type: "page_edited", page: page("a"), attributes: { document: { before: "1", after: "3" } } },
      { type: "page_edited", page: page("same"), attributes: { title: { before: "x", after: "y" } } },
      { type: "page_edited", page: page("d"), attributes: { title: { before: "x", after: "z" } } },
      { type: "page_deleted", page: page("both") },
      { type: "page_moved", page: page("m"), parent: { after: page("q") } },
    ]);
    const found = pageConflicts(ours, theirs);
    expect(found.map((c) => [c.ours.id, c.reason])).toEqual([
      ["a", "changed on both sides differently (content)"],
      ["d", "deleted in the change request, changed on main"],
      ["m", "changed on both sides differently (place)"],
    ]);
  });
});
