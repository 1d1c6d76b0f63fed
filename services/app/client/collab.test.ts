import * as Y from "yjs";
import { prosemirrorToYXmlFragment, yXmlFragmentToProseMirrorRootNode } from "y-prosemirror";
import type { JSONDocument } from "@docshelf/document";
import { fromEditor, toEditor } from "./convert";
import { isEmpty, seedClientId, seedUpdate } from "./collab";
import { schema } from "./schema";

const text = (t: string) => ({ object: "text", leaves: [{ object: "leaf", text: t, marks: [] }] });
const STORED = {
  object: "document",
  data: {},
  nodes: [
    { object: "block", type: "heading-1", data: {}, nodes: [text("Welcome")] },
    { object: "block", type: "paragraph", data: {}, nodes: [{ object: "text", leaves: [{ object: "leaf", text: "The ", marks: [] }, { object: "leaf", text: "handbook", marks: [{ object: "mark", type: "bold" }] }] }] },
    { object: "block", type: "hint", data: { style: "warning" }, nodes: [{ object: "block", type: "paragraph", data: {}, nodes: [text("Careful")] }] },
    { object: "block", type: "code", data: { syntax: "js" }, nodes: [{ object: "block", type: "code-line", data: {}, nodes: [text("let a = 1;")] }] },
  ],
} as unknown as JSONDocument;

/** A shared document seeded the way an editor seeds it. */
function seeded(stored: JSONDocument): Y.Doc {
  const doc = new Y.Doc();
  const json = JSON.stringify(stored);
  Y.applyUpdate(doc, seedUpdate(json, (f) => prosemirrorToYXmlFragment(toEditor(stored), f)));
  return doc;
}

const pageOf = (doc: Y.Doc) => fromEditor(yXmlFragmentToProseMirrorRootNode(doc.getXmlFragment("prosemirror"), schema));

describe("seeding the shared document", () => {
  test("a seeded document reads back as the stored page", () => {
    const doc = seeded(STORED);
    expect(isEmpty(doc)).toBe(false);
    expect(pageOf(doc)).toEqual(fromEditor(toEditor(STORED)));
  });

  test("two editors seeding the same stored page make one copy, not two", () => {
    const a = seeded(STORED);
    const b = seeded(STORED);
    Y.applyUpdate(a, Y.encodeStateAsUpdate(b));
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
    expect(pageOf(a).nodes).toHaveLength(STORED.nodes.length);
    expect(pageOf(b)).toEqual(pageOf(a));
  });

  test("the seed's client id is the stored page's: the same page the same id, another page another", () => {
    expect(seedClientId(JSON.stringify(STORED))).toBe(seedClientId(JSON.stringify(STORED)));
    expect(seedClientId(JSON.stringify(STORED))).not.toBe(seedClientId(JSON.stringify({ ...STORED, nodes: [] })));
  });
});
