// A short window of a section's text around the first place a matched term occurs.

const ELLIPSIS = "…";

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** How many flattened texts and term patterns are kept (a search presents the same few sections again and again). */
const KEPT = 500;
const flattened = new Map<string, string>();
const patterns = new Map<string, RegExp>();

/** `map.get(key)`, else `make()` kept under key; the oldest entry goes once there are KEPT. */
function kept<V>(map: Map<string, V>, key: string, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
    if (map.size > KEPT) map.delete(map.keys().next().value as string);
  }
  return value;
}

/** Up to `maxLength` characters of `text`, starting a little before the earliest matched term. */
export function excerpt(text: string, terms: string[], maxLength = 200): string {
  // Kept by text: the section texts of recently hit pages are the same strings each time (see SpaceIndex.sectionsOf).
  const flat = kept(flattened, text, () => text.replace(/\s+/g, " ").trim());
  if (flat.length <= maxLength) return flat;
  // One pattern for all terms: the first place any of them starts a word.
  const words = terms.filter((term) => term.length > 0).map(escapeRegExp);
  const pattern = words.length === 0 ? undefined : kept(patterns, words.join("|"), () => new RegExp(`(?:^|[^\\p{L}\\p{N}])(?:${words.join("|")})`, "iu"));
  const first = pattern?.exec(flat)?.index ?? -1;
  let start = first <= 0 ? 0 : Math.max(0, first - Math.floor(maxLength / 4));
  if (start > 0) {
    const space = flat.indexOf(" ", start);
    start = space !== -1 && space < start + 20 ? space + 1 : start;
  }
  let end = Math.min(flat.length, start + maxLength);
  if (end < flat.length) {
    const space = flat.lastIndexOf(" ", end);
    end = space > start + maxLength / 2 ? space : end;
  }
  return `${start > 0 ? ELLIPSIS : ""}${flat.slice(start, end)}${end < flat.length ? ELLIPSIS : ""}`;
}
