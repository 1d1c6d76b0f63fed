// English words too common to help a search: left out of the index and of queries, which keeps
// the index smaller and a query like "how to install the cli" as fast as "install cli".
const STOP_WORDS = new Set(
  "a an and are as at be but by for from has have how if in into is it its of on or so than that the their then there these this those to was were what when where which while who will with you your".split(" "),
);

/** MiniSearch's term processing: lower-case, and drop stop words. */
export function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  return STOP_WORDS.has(lower) ? null : lower;
}
