// The app's only documents: its sessions.
import type { CollectionSpec } from "@docshelf/store";

export interface SessionDoc {
  /** sha256 of the cookie's value: the value itself is never stored. */
  id: string;
  userId: string;
  /** Hash of the API token signed in with: the session lasts only as long as that token works. */
  tokenHash: string;
  createdAt: string;
  /** Epoch milliseconds after which the session no longer opens pages. */
  expiresAt: number;
}

export const collections: Record<string, CollectionSpec> = {
  sessions: { name: "sessions", indexes: [{ fields: ["userId"] }, { fields: ["tokenHash"] }, { fields: ["expiresAt"] }] },
};
