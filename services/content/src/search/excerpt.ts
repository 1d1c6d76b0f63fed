// A short window of a section's text around the first place a matched term occurs.

const ELLIPSIS = "…";

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Up to `maxLength` characters of `text`, starting a little before the earliest matched term. */
export function excerpt(text: string, terms: string[], maxLength = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= maxLength) return flat;
  let first = -1;
  for (const term of terms) {
    const match = new RegExp(`(?:^|[^\\p{L}\\p{N}])${escapeRegExp(term)}`, "iu").exec(flat);
    if (match && (first === -1 || match.index < first)) first = match.index;
  }
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
