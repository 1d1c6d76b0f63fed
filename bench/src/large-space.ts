// The 10,000-page space the large benches build: deterministic ~2 KB markdown pages, 1 % of them
// top-level sections and the rest their children, inserted in batches through the test-only changes route.
export const WORDS = (
  "page space content revision markdown heading section guide install configure deploy token search index " +
  "gateway service broker cluster node request answer latency memory stream tree slug path title description " +
  "organization member role admin editor reader collection template variable file image link anchor report " +
  "import export sync branch commit merge review change draft publish archive restore duplicate transfer move"
).split(" ");

/** Deterministic pseudo-random numbers, so every run inserts the same text. */
let seed = 42;
export const rnd = (): number => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x80000000;
};
export const word = (): string => WORDS[Math.floor(rnd() * WORDS.length)];
export const sentence = (n: number): string => {
  const ws = Array.from({ length: n }, word);
  ws[0] = ws[0][0].toUpperCase() + ws[0].slice(1);
  return `${ws.join(" ")}.`;
};

/** ~2 KB of markdown: a title heading, sub-headings, paragraphs, a list. */
export function markdown(i: number): string {
  const parts = [`# Page ${i} ${word()} ${word()}`, "", sentence(12), ""];
  for (let h = 0; h < 3; h++) {
    parts.push(`## ${word()} ${word()} ${i}-${h}`, "", sentence(25), sentence(20), "", `- ${sentence(6)}`, `- ${sentence(6)}`, "");
  }
  let text = parts.join("\n");
  while (text.length < 1900) text += `\n${sentence(15)}`;
  return `${text}\n`;
}

export const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
export const r1 = (x: number): number => Math.round(x * 10) / 10;
export const now = (): number => Number(process.hrtime.bigint()) / 1e6;

export type Post = (path: string, body: unknown) => Promise<unknown>;

/**
 * Inserts `pages` pages into a space through `POST /v1/_test/spaces/{id}/changes` (the system must run
 * with NODE_ENV=test), `batch` at a time; `between` runs after each batch (e.g. to check the system is up).
 * Returns the markdown bytes inserted.
 */
export async function insertLargeSpace(post: Post, spaceId: string, pages: number, batch: number, between?: () => void): Promise<number> {
  const sections = Math.max(1, Math.floor(pages / 100));
  const all: Array<Record<string, unknown>> = [];
  let bytes = 0;
  for (let i = 0; i < pages; i++) {
    const md = markdown(i);
    bytes += Buffer.byteLength(md);
    if (i < sections) all.push({ type: "insert_page", id: `sec${i}`, markdown: md });
    else all.push({ type: "insert_page", parent: `sec${i % sections}`, markdown: md });
  }
  for (let off = 0; off < all.length; off += batch) {
    await post(`/v1/_test/spaces/${spaceId}/changes`, { changes: all.slice(off, off + batch) });
    between?.();
  }
  return bytes;
}
