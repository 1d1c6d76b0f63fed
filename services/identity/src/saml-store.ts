// Request ids and accepted message ids in identity's own store, so every gateway node sees the same ones.
import type { CacheItem, CacheProvider } from "@node-saml/node-saml";
import { ConflictError } from "@docshelf/errors";
import { op, type Collection } from "@docshelf/store";
import type { AppSignIn, SamlConsumedDoc, SamlRequestDoc } from "./models";
import { CONSUMED_TTL_MS, REQUEST_TTL_MS } from "./saml-config";

export interface RequestCache extends CacheProvider {
  /** The stored request the response answered, once node-saml looked it up. */
  answered(): SamlRequestDoc | null;
}

/**
 * node-saml's InResponseTo cache for one provider: a request id answers only for the provider that
 * sent it. `linkUserId` and `app` are stored with the requests it saves.
 */
export function requestCache(requests: Collection<SamlRequestDoc>, providerId: string, options: { linkUserId?: string; app?: AppSignIn; now?: () => number } = {}): RequestCache {
  const now = options.now ?? (() => Date.now());
  const key = (id: string) => `${providerId}:${id}`;
  let seen: SamlRequestDoc | null = null;
  return {
    async saveAsync(id: string, value: string): Promise<CacheItem | null> {
      const createdAt = now();
      await requests.deleteMany({ expiresAt: op.lt(createdAt) });
      const doc: SamlRequestDoc = { id: key(id), issuedAt: value, expiresAt: createdAt + REQUEST_TTL_MS };
      if (options.linkUserId) doc.linkUserId = options.linkUserId;
      if (options.app) doc.app = { binding: options.app.binding, returnTo: options.app.returnTo };
      await requests.insert(doc);
      return { value, createdAt };
    },
    async getAsync(id: string): Promise<string | null> {
      const doc = await requests.findOne({ id: key(id) });
      if (!doc || doc.expiresAt <= now()) return null;
      seen = doc;
      return doc.issuedAt;
    },
    async removeAsync(id: string | null): Promise<string | null> {
      if (!id) return null;
      const doc = await requests.findOne({ id: key(id) });
      await requests.deleteOne({ id: key(id) });
      return doc?.issuedAt ?? null;
    },
    answered: () => seen,
  };
}

/**
 * Records that the response and its assertion were accepted. The store's unique id makes this
 * atomic: of two posts of the same response, even at the same moment, exactly one gets `true`.
 */
export async function consumeOnce(consumed: Collection<SamlConsumedDoc>, providerId: string, ids: string[], now = Date.now()): Promise<boolean> {
  await consumed.deleteMany({ expiresAt: op.lt(now) });
  for (const id of ids) {
    try {
      await consumed.insert({ id: `${providerId}:${id}`, expiresAt: now + CONSUMED_TTL_MS });
    } catch (err) {
      if (err instanceof ConflictError) return false;
      throw err;
    }
  }
  return true;
}
