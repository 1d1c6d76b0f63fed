import { semanticChanges } from "./semantic-changes";
import { applyChanges, type RevisionContent } from "./tree";

const NOW = "2026-01-01T00:00:00.000Z";
const empty = (): RevisionContent => ({ pages: [], files: [], reusableContents: [], variables: {} });
const url = (f: { sha256: string; name: string }) => `u/${f.sha256}/${f.name}`;
const file = { id: "f1", name: "a.png", contentType: "image/png", size: 3, sha256: "s1" };

describe("semanticChanges", () => {
  const base = applyChanges(
    { ...empty(), files: [file] },
    [
      { type: "insert_page", id: "a", markdown: "# A\n\na" },
      { type: "insert_page", id: "b", markdown: "# B\n\nb" },
      { type: "upsert_reusable_content", id: "r1", title: "Snippet", markdown: "x" },
    ],
    NOW,
  );

  test("no parent: everything is created", () => {
    const types = semanticChanges(null, base, url).map((c) => c.type);
    expect(types).toEqual(["page_created", "page_created", "file_created", "reusable_content_created"]);
  });

  test("edits, moves, deletions, file and reusable content edits, with before and after", () => {
    const next = applyChanges(
      { ...base, files: [{ ...file, name: "b.png", sha256: "s2", size: 4 }] },
      [
        { type: "update_page", page: "a", title: "A2", markdown: "changed" },
        { type: "update_page", page: "b", parent: "a" },
        { type: "insert_page", id: "c", markdown: "# C" },
        { type: "upsert_reusable_content", id: "r1", title: "Snippet 2", markdown: "x" },
      ],
      NOW,
    );
    const changes = semanticChanges(base, next, url);
    const a = base.pages.find((p) => p.id === "a")!;
    const a2 = next.pages.find((p) => p.id === "a")!;
    expect(changes).toEqual([
      {
        type: "page_edited",
        page: { id: "a", type: "document", title: "A2", path: "a" },
        // The slug stays (it is not renamed with the title), so it is not listed.
        attributes: { title: { before: "A", after: "A2" }, document: { before: a.documentId, after: a2.documentId } },
      },
      { type: "page_moved", page: expect.objectContaining({ id: "b" }), parent: { after: expect.objectContaining({ id: "a" }) } },
      { type: "page_created", page: expect.objectContaining({ id: "c", title: "C" }) },
      {
        type: "file_edited",
        file: { id: "f1", name: "b.png", contentType: "image/png", downloadURL: "u/s2/b.png" },
        attributes: { name: { before: "a.png", after: "b.png" }, size: { before: 3, after: 4 }, downloadURL: { before: "u/s1/a.png", after: "u/s2/b.png" } },
      },
      { type: "reusable_content_edited", reusableContent: expect.objectContaining({ id: "r1", title: "Snippet 2" }), attributes: { title: { before: "Snippet", after: "Snippet 2" } } },
    ]);
    const back = semanticChanges(next, { ...base, files: [] }, url).map((c) => c.type);
    expect(back).toEqual(["page_edited", "page_moved", "page_deleted", "file_deleted", "reusable_content_edited"]);
  });
});
