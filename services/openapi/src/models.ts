// Specs and their versions as stored.
import type { CollectionSpec } from "@docshelf/store";
import type { ProcessErrorCode } from "./processing-failure";

export const PROCESSING_STATES = ["pending", "progress", "complete"] as const;
export type ProcessingState = (typeof PROCESSING_STATES)[number];
export const VISIBILITIES = ["private", "public"] as const;
export type SpecVisibility = (typeof VISIBILITIES)[number];

export type SpecSource = { url: string } | { text: string };

export interface SpecDoc {
  id: string;
  organizationId: string;
  slug: string;
  /** What the last create or PUT gave: a URL to fetch (and refresh) or the text itself. */
  source: SpecSource;
  visibility: SpecVisibility;
  processingState: ProcessingState;
  /** Bumped by every create or PUT: a processing run only writes its result if it is still current. */
  sourceRevision: number;
  /** When a processing run claimed the spec ("" when none): a run's writes are conditional on its own claim. */
  claimedAt: string;
  lastVersion?: string;
  lastProcessedAt?: string;
  lastProcessErrorCode?: ProcessErrorCode;
  lastProcessedErrors?: Array<{ message: string; code?: string }>;
  createdAt: string;
  updatedAt: string;
}

export interface VersionDoc {
  id: string;
  specId: string;
  organizationId: string;
  createdAt: string;
  /** Where the specification was fetched from; absent for a spec sent as text. */
  sourceURL?: string;
  hash: string;
  specVersion: string;
}

/** A version's parsed document, apart from the version so that listing versions never loads it. */
export interface DocumentDoc {
  /** The version's id. */
  id: string;
  specId: string;
  /** The document as JSON text: its keys ($ref, paths with dots) are not valid stored field names. */
  json: string;
}

export const collections: Record<"specs" | "versions" | "documents", CollectionSpec> = {
  specs: { name: "specs", indexes: [{ fields: ["organizationId", "slug"], unique: true }, { fields: ["processingState"] }] },
  versions: { name: "versions", indexes: [{ fields: ["specId"] }] },
  documents: { name: "documents", indexes: [{ fields: ["specId"] }] },
};
