// Content-addressed page documents: a body is stored once under the SHA-256 of its markdown.
//
// A long body is stored in parts (PART_CHARS each, ids `<sha256>.<n>`, written before the document that
// names them, so a document present is whole) and read back part by part: the embedded store writes and
// reads a record synchronously (serializing, SQLite, parsing), which for a body of a MiB held the event loop
// 0.1–2 s at once on a loaded two-core machine; in parts each turn holds it for one part's worth.
import { createHash } from "node:crypto";
import { ConflictError } from "@docshelf/errors";
import { op, type Collection } from "@docshelf/store";
import type { DocumentDoc } from "../models";

/** Characters of Markdown per stored part of a long body. */
export const PART_CHARS = 64 * 1024;

export function documentIdOf(markdown: string): string {
  return createHash("sha256").update(markdown, "utf8").digest("hex");
}

const partId = (id: string, n: number) => `${id}.${n}`;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Stores the bodies that are not stored yet; identical bodies (in any space or revision) are shared. */
export async function storeDocuments(documents: Collection<DocumentDoc>, bodies: Map<string, string>, now: string): Promise<void> {
  if (bodies.size === 0) return;
  const ids = [...bodies.keys()];
  const existing = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const doc of await documents.find({ id: op.in(ids.slice(i, i + 500)) })) existing.add(doc.id);
  }
  for (const [id, markdown] of bodies) {
    if (existing.has(id)) continue;
    if (markdown.length <= PART_CHARS) {
      await insertOnce(documents, { id, markdown, createdAt: now });
      continue;
    }
    // One part per turn of the event loop (the writes of a turn commit together); the document last.
    const writes: Array<Promise<void>> = [];
    const parts = Math.ceil(markdown.length / PART_CHARS);
    for (let n = 0; n < parts; n++) {
      writes.push(insertOnce(documents, { id: partId(id, n), markdown: markdown.slice(n * PART_CHARS, (n + 1) * PART_CHARS), createdAt: now }));
      await turn();
    }
    await Promise.all(writes);
    await insertOnce(documents, { id, markdown: "", parts, createdAt: now });
  }
}

async function insertOnce(documents: Collection<DocumentDoc>, doc: DocumentDoc): Promise<void> {
  try {
    await documents.insert(doc);
  } catch (err) {
    // Another writer stored the same body first: content addressing makes that the same document.
    if (!(err instanceof ConflictError)) throw err;
  }
}

/** The bodies of the documents stored under `ids` (those stored), long ones put together from their parts a part per turn. */
export async function readDocuments(documents: Collection<DocumentDoc>, ids: readonly string[]): Promise<Map<string, string>> {
  const bodies = new Map<string, string>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 500) {
    for (const doc of await documents.find({ id: op.in(unique.slice(i, i + 500)) })) {
      bodies.set(doc.id, doc.parts ? await readParts(documents, doc.id, doc.parts) : doc.markdown);
    }
  }
  return bodies;
}

/** One document's body; undefined when none is stored under `id`. */
export async function readDocument(documents: Collection<DocumentDoc>, id: string): Promise<string | undefined> {
  const doc = await documents.findOne({ id });
  if (!doc) return undefined;
  return doc.parts ? readParts(documents, id, doc.parts) : doc.markdown;
}

async function readParts(documents: Collection<DocumentDoc>, id: string, parts: number): Promise<string> {
  const texts: string[] = [];
  for (let n = 0; n < parts; n++) {
    await turn();
    const part = await documents.findOne({ id: partId(id, n) });
    if (!part) throw new Error(`Part ${n} of page body ${id} is missing from the store.`);
    texts.push(part.markdown);
  }
  return texts.join("");
}

/** Removes a document and its parts (the document first: from then on it is absent, whatever parts remain). */
export async function removeDocument(documents: Collection<DocumentDoc>, id: string): Promise<void> {
  const doc = await documents.findOne({ id });
  if (!doc) return;
  await documents.deleteOne({ id });
  for (let n = 0; n < (doc.parts ?? 0); n++) await documents.deleteOne({ id: partId(id, n) });
}
