// A faster moleculer-web resolveAlias: the same first match in the same order, found among the aliases that
// can match the URL (same first two path segments, same number of segments) instead of by trying every
// alias's regular expression.

export interface AliasLike {
  method: string;
  fullPath: string;
  isMethod(method: string): boolean;
  match(url: string): Record<string, unknown> | false;
}

export interface AliasIndex<A extends AliasLike> {
  aliases: A[];
  length: number;
  /** Candidates, in the aliases' order, by bucket (first two segments in lower case, number of segments). */
  byPrefix: Map<string, A[]>;
  /** Aliases without a bucket: candidates for every URL. */
  generic: A[];
}

const LITERAL = /^[A-Za-z0-9._~-]+$/;
const PARAM = /^:[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * The bucket of a path made only of plain segments and `:name` parameters: its first two segments (lower
 * case: path-to-regexp matches case-insensitively by default) and its number of segments. Such a path
 * matches only URLs with as many non-empty segments (one trailing slash allowed) that start with the
 * same two. Other paths (wildcards, optional parts, `/`) have no bucket.
 */
function aliasKey(fullPath: string): string | undefined {
  const segments = fullPath.split("/");
  if (segments[0] !== "" || segments.length < 2) return undefined;
  const rest = segments.slice(1);
  if (!rest.every((segment) => LITERAL.test(segment) || PARAM.test(segment))) return undefined;
  const head = rest.slice(0, 2);
  if (!head.every((segment) => LITERAL.test(segment))) return undefined;
  return `${head.join("/").toLowerCase()}#${rest.length}`;
}

/** The bucket a URL's aliases would be in (see aliasKey); found with one scan, as it runs on every request. */
function urlKey(url: string): string | undefined {
  if (url.charCodeAt(0) !== 47 /* / */) return undefined;
  // One trailing slash is allowed and does not count as a segment.
  const end = url.length > 1 && url.charCodeAt(url.length - 1) === 47 ? url.length - 1 : url.length;
  let segments = 1;
  let headEnd = end;
  for (let i = 1; i < end; i++) {
    if (url.charCodeAt(i) !== 47) continue;
    segments += 1;
    if (segments === 3) headEnd = i;
  }
  return `${url.slice(1, headEnd).toLowerCase()}#${segments}`;
}

export function buildAliasIndex<A extends AliasLike>(aliases: A[]): AliasIndex<A> {
  const keyed = new Map<string, number[]>();
  const generic: number[] = [];
  aliases.forEach((alias, i) => {
    const key = aliasKey(alias.fullPath);
    if (key === undefined) {
      generic.push(i);
      return;
    }
    const list = keyed.get(key) ?? [];
    list.push(i);
    keyed.set(key, list);
  });
  const byPrefix = new Map<string, A[]>();
  for (const [key, own] of keyed) {
    // Merged with the generic ones by position, so the first match is the one moleculer-web would find.
    byPrefix.set(key, [...own, ...generic].sort((x, y) => x - y).map((i) => aliases[i]));
  }
  return { aliases, length: aliases.length, byPrefix, generic: generic.map((i) => aliases[i]) };
}

export function resolveIndexed<A extends AliasLike>(index: AliasIndex<A>, url: string, method: string): { alias: A; params: Record<string, unknown> } | false {
  const key = urlKey(url);
  const candidates = (key !== undefined && index.byPrefix.get(key)) || index.generic;
  for (let i = 0; i < candidates.length; i++) {
    const alias = candidates[i];
    if (alias.isMethod(method)) {
      const params = alias.match(url);
      if (params) return { alias, params };
    }
  }
  return false;
}

/** The methods of the aliases whose path matches `url` (any method), sorted; empty when none does. */
export function allowedMethods(aliases: AliasLike[], url: string): string[] {
  const methods = new Set<string>();
  for (const alias of aliases) {
    if (alias.method === "*" || methods.has(alias.method)) continue;
    if (alias.match(url)) methods.add(alias.method);
  }
  return [...methods].sort();
}
