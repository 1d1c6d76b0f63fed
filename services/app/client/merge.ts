// Bringing an edit made elsewhere (the API, the Markdown editor) into an open live editor: a three-way merge
// of the page's top-level blocks. `base` is the page as the editor last knew it stored, `theirs` as it is
// stored now, `mine` the live document. The run of blocks `theirs` changed from `base` (everything between
// their common first and last blocks) replaces the same run in `mine`, found by the unchanged blocks around
// it; the live document's other blocks, edited or not, are kept. Inside the blocks the stored edit changed,
// the stored edit wins. Blocks are compared as their JSON.

export interface BlockSplice {
  /** The live document's blocks [from, to) are replaced… */
  from: number;
  to: number;
  /** …by these blocks of `theirs` [start, end). */
  start: number;
  end: number;
}

/** Where `want` is in `list`, the occurrence nearest `near` at or after `min`; -1 when it is not there. */
function nearest(list: string[], want: string, near: number, min: number): number {
  let best = -1;
  for (let i = min; i < list.length; i++) {
    if (list[i] !== want) continue;
    if (best < 0 || Math.abs(i - near) < Math.abs(best - near)) best = i;
  }
  return best;
}

/**
 * The splice that brings `theirs`' change of `base` into `mine`; null when `theirs` is `base` (nothing to
 * bring). When the blocks around the change cannot be found in `mine`, the whole of `mine` is replaced.
 */
export function mergeBlocks(base: string[], theirs: string[], mine: string[]): BlockSplice | null {
  let p = 0;
  while (p < base.length && p < theirs.length && base[p] === theirs[p]) p++;
  if (p === base.length && p === theirs.length) return null;
  let s = 0;
  while (s < base.length - p && s < theirs.length - p && base[base.length - 1 - s] === theirs[theirs.length - 1 - s]) s++;
  const whole: BlockSplice = { from: 0, to: mine.length, start: 0, end: theirs.length };
  let from = 0;
  if (p > 0) {
    const anchor = nearest(mine, base[p - 1], p - 1, 0);
    if (anchor < 0) return whole;
    from = anchor + 1;
  }
  let to = mine.length;
  if (s > 0) {
    const anchor = nearest(mine, base[base.length - s], mine.length - s, from);
    if (anchor < 0) return whole;
    to = anchor;
  }
  // A change at the page's end (or start) has no block after (before) it: the run it changed is found by
  // its blocks themselves when the live document still has them there, so blocks added live after (before)
  // it stay.
  const changed = base.slice(p, base.length - s);
  const same = (at: number) => changed.every((block, i) => mine[at + i] === block);
  if (s === 0 && p > 0 && same(from)) to = from + changed.length;
  else if (p === 0 && s > 0 && to - changed.length >= 0 && same(to - changed.length)) from = to - changed.length;
  return { from, to, start: p, end: theirs.length - s };
}
