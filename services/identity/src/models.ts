// Users and API tokens as stored.
import type { CollectionSpec } from "@docshelf/store";

export interface UserDoc {
  id: string;
  email: string;
  displayName: string;
  photoURL?: string;
  instanceAdmin: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface TokenDoc {
  id: string;
  userId: string;
  /** SHA-256 of the token; the token itself is never stored. */
  hash: string;
  label?: string;
  createdAt: string;
}

export const collections: Record<"users" | "tokens", CollectionSpec> = {
  users: { name: "users", indexes: [{ fields: ["email"], unique: true }] },
  tokens: { name: "tokens", indexes: [{ fields: ["hash"], unique: true }, { fields: ["userId"] }] },
};
