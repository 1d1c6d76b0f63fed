// Content-addressed page documents: a body is stored once under the SHA-256 of its markdown.
import { createHash } from "node:crypto";
import { ConflictError } from "@docshelf/errors";
import { op, type Collection } from "@docshelf/store";
import type { DocumentDoc } from "../models";

export function documentIdOf(markdown: string): string {
  return createHash("sha256").update(markdown, "utf8").digest("hex");
}

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
    try {
      await documents.insert({ id, markdown, createdAt: now });
    } catch (err) {
      // Another writer stored the same body first: content addressing makes that the same document.
      if (!(err instanceof ConflictError)) throw err;
    }
  }
}
