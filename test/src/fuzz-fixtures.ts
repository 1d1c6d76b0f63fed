// Generators of the fuzz suite (issue 36): pathological inputs for every path that takes untrusted input,
// as fast-check arbitraries. Sizes are bounded by what one request may carry (JSON_BODY_LIMIT_BYTES, 1 MiB)
// and chosen so that the shapes known to make parsers superlinear (nesting, repetition, long runs of
// delimiters, wide and deep trees, $ref graphs, YAML aliases) come out at sizes where quadratic work would
// take seconds.
import fc from "fast-check";
import { strToU8, zipSync } from "fflate";

/** The fixed seed of a run (FUZZ_SEED overrides it); fast-check names it, with the failing case's path, on failure. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 36_036);

/**
 * fc.assert's settings: the fixed seed, `numRuns` cases, stop at the first failure (shrinking costs requests).
 * A failure says the seed and the case's path (to replay it: FUZZ_SEED, and fast-check's `path`), the start
 * of the input (inputs run to hundreds of kilobytes) and what failed.
 */
export function fuzzRuns<T>(numRuns: number): fc.Parameters<T> {
  return {
    seed: FUZZ_SEED,
    numRuns,
    endOnFailure: true,
    reporter(details) {
      if (!details.failed) return;
      const input = fc.stringify(details.counterexample);
      const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
      throw new Error(
        `Property failed at run ${details.numRuns} of FUZZ_SEED=${details.seed} (path "${details.counterexamplePath}"), on an input of ${input.length} characters: ${input.slice(0, 300)}${input.length > 300 ? "…" : ""}\n${error}`,
      );
    },
  };
}

const n = (max: number) => fc.integer({ min: 1, max });

/** Markdown (GitBook's dialect included) of shapes that stress a parser or renderer. */
export const pathologicalMarkdown: fc.Arbitrary<string> = fc.oneof(
  n(400).map((d) => Array.from({ length: d }, (_, i) => `${"  ".repeat(i)}- item ${i}`).join("\n")),
  n(400).map((d) => Array.from({ length: d }, (_, i) => `${"   ".repeat(i)}1. step ${i}`).join("\n")),
  n(20_000).map((d) => `${">".repeat(d)} deep quote`),
  n(20_000).map((d) => "# a\n".repeat(d)),
  n(20_000).map((d) => `## ${"heading ".repeat(d % 50)}${d}\n`.repeat(Math.ceil(d / 10))),
  n(200_000).map((d) => "x".repeat(d)),
  n(50_000).map((d) => "*a **".repeat(d)),
  n(50_000).map((d) => "_".repeat(d) + "a" + "_".repeat(d)),
  n(50_000).map((d) => "[".repeat(d) + "a" + "](".repeat(d)),
  n(50_000).map((d) => "`".repeat(d) + "a" + "``".repeat(d)),
  n(50_000).map((d) => "<div>".repeat(d)),
  n(50_000).map((d) => "![".repeat(d)),
  n(20_000).map((d) => `| a | b |\n| - | - |\n${"| x | y |\n".repeat(d)}`),
  n(5_000).map((d) => `| ${"c | ".repeat(d)}\n|${" - |".repeat(d)}\n| ${"v | ".repeat(d)}\n`),
  n(10_000).map((d) => `{% hint style="info" %}\n`.repeat(d)),
  n(10_000).map((d) => "{% tabs %}\n{% tab title=\"a\" %}\n".repeat(d)),
  n(10_000).map((d) => "$$\n".repeat(d)),
  n(10_000).map((d) => "```\n".repeat(d)),
  n(20_000).map((d) => "[a]: http://x\n".repeat(d) + "[a] ".repeat(d)),
  n(20_000).map((d) => "<!-- ".repeat(d)),
  fc.array(fc.constantFrom("#", "*", "_", "`", "[", "]", "(", ")", "!", "<", ">", "|", "-", "\n", " ", "a", "{%", "%}", "$$", "\\", "&amp;", "1."), { maxLength: 20_000 }).map((a) => a.join("")),
  fc.string({ unit: "binary", maxLength: 5_000 }),
);

/** GitBook JSON documents: deep and wide trees of blocks, plausible and not (the API answers 400 for the bad). */
export const pathologicalDocument: fc.Arbitrary<unknown> = fc.oneof(
  // Deep: nested blockquotes (the body's own depth limit answers first past JSON_MAX_DEPTH).
  n(60).map((d) => {
    let node: unknown = { object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ object: "leaf", text: "deep", marks: [] }] }] };
    for (let i = 0; i < d; i++) node = { object: "block", type: "blockquote", nodes: [node] };
    return { object: "document", nodes: [node] };
  }),
  // Wide: many paragraphs, many leaves, many marks.
  n(20_000).map((w) => ({
    object: "document",
    nodes: Array.from({ length: Math.ceil(w / 100) }, (_, i) => ({
      object: "block",
      type: "paragraph",
      nodes: [{ object: "text", leaves: Array.from({ length: 100 }, (_, j) => ({ object: "leaf", text: `${i}.${j} `, marks: [{ object: "mark", type: j % 2 ? "bold" : "italic" }] })) }],
    })),
  })),
  // One huge leaf.
  n(900_000).map((len) => ({ object: "document", nodes: [{ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ object: "leaf", text: "y".repeat(len), marks: [] }] }] }] })),
  // Many headings with one title (anchors).
  n(10_000).map((c) => ({
    object: "document",
    nodes: Array.from({ length: c }, () => ({ object: "block", type: "heading-1", nodes: [{ object: "text", leaves: [{ object: "leaf", text: "a", marks: [] }] }] })),
  })),
  // Whatever JSON.
  fc.jsonValue({ maxDepth: 8 }),
  fc.record({ object: fc.constant("document"), nodes: fc.array(fc.jsonValue({ maxDepth: 6 }), { maxLength: 50 }) }),
);

/** HTML pages of shapes that stress an HTML parser and HTML-to-Markdown conversion. */
export const pathologicalHtml: fc.Arbitrary<string> = fc.oneof(
  n(3_000).map((d) => `${"<div>".repeat(d)}deep${"</div>".repeat(d)}`),
  n(3_000).map((d) => `${"<ul><li>".repeat(d)}deep${"</li></ul>".repeat(d)}`),
  n(300).map((d) => `${"<table><tr><td>".repeat(d)}cell${"</td></tr></table>".repeat(d)}`),
  n(8_000).map((rows) => `<table>${Array.from({ length: rows }, (_, i) => `<tr><td>${i}</td><td><b>b</b></td><td align="right"><i>${i % 13}</i></td></tr>`).join("")}</table>`),
  n(2_000).map((cols) => `<table><tr>${"<th>h</th>".repeat(cols)}</tr><tr>${"<td>v</td>".repeat(cols)}</tr></table>`),
  n(20_000).map((c) => "<p>*_`[x]` \\ | # - 1. &lt;</p>".repeat(Math.ceil(c / 10))),
  n(20_000).map((c) => `<p>${"<b><i>".repeat(c)}x</p>`),
  n(5_000).map((c) => Array.from({ length: c }, (_, i) => `<a href="/page-${i}">link ${i}</a>`).join(" ")),
  n(5_000).map((c) => `<pre><code>${"line\n".repeat(c * 10)}</code></pre>`),
  n(200_000).map((len) => `<p>${"z".repeat(len)}</p>`),
  fc.string({ unit: "binary", maxLength: 5_000 }),
);

/** OpenAPI specs (JSON and YAML) of shapes that stress parsing, dereferencing and validation. */
export const pathologicalSpec: fc.Arbitrary<string> = fc.oneof(
  // $ref fan-out: schema s_i has `width` properties all $ref s_{i+1}.
  fc.record({ depth: fc.integer({ min: 1, max: 30 }), width: fc.integer({ min: 1, max: 4 }) }).map(({ depth, width }) => {
    const schemas: Record<string, unknown> = {};
    for (let i = 0; i < depth; i++) schemas[`s${i}`] = { type: "object", properties: Object.fromEntries(Array.from({ length: width }, (_, k) => [`p${k}`, { $ref: `#/components/schemas/s${i + 1}` }])) };
    schemas[`s${depth}`] = { type: "string" };
    return specWith(schemas, "s0");
  }),
  // $ref cycles of any length.
  n(200).map((len) => {
    const schemas: Record<string, unknown> = {};
    for (let i = 0; i < len; i++) schemas[`c${i}`] = { type: "object", properties: { next: { $ref: `#/components/schemas/c${(i + 1) % len}` }, self: { $ref: `#/components/schemas/c${i}` } } };
    return specWith(schemas, "c0");
  }),
  // Deep nesting of inline schemas.
  n(3_000).map((d) => {
    let schema: unknown = { type: "string" };
    for (let i = 0; i < d; i++) schema = { type: "object", properties: { x: schema } };
    return specWith({ deep: schema }, "deep");
  }),
  // Deep nesting of plain arrays.
  n(50_000).map((d) => `{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{},"x-deep":${"[".repeat(d)}${"]".repeat(d)}}`),
  // Huge strings.
  n(900_000).map((len) => specWith({ s: { type: "string", description: "d".repeat(len) } }, "s")),
  // Many paths.
  n(5_000).map((c) => JSON.stringify({ openapi: "3.0.3", info: { title: "Many", version: "1" }, paths: Object.fromEntries(Array.from({ length: c }, (_, i) => [`/p${i}/{id}`, { get: { parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }], responses: { "200": { description: "ok" } } } }])) })),
  // YAML alias bombs ("billion laughs"): `levels` levels of `fan` aliases each.
  fc.record({ levels: fc.integer({ min: 1, max: 12 }), fan: fc.integer({ min: 2, max: 10 }) }).map(({ levels, fan }) => {
    const lines = ["openapi: 3.0.3", "info: {title: bomb, version: '1'}", "paths: {}", "x-bomb:", "  l0: &l0 [lol, lol]"];
    for (let i = 1; i <= levels; i++) lines.push(`  l${i}: &l${i} [${Array.from({ length: fan }, () => `*l${i - 1}`).join(", ")}]`);
    return `${lines.join("\n")}\n`;
  }),
  // Deep YAML flow nesting, and random text.
  n(50_000).map((d) => `openapi: 3.0.3\ninfo: {title: y, version: '1'}\npaths: {}\nx: ${"{a: ".repeat(d)}1${"}".repeat(d)}\n`),
  fc.string({ unit: "binary", maxLength: 5_000 }),
);

function specWith(schemas: Record<string, unknown>, root: string): string {
  const ok = { "200": { description: "ok", content: { "application/json": { schema: { $ref: `#/components/schemas/${root}` } } } } };
  return JSON.stringify({ openapi: "3.0.3", info: { title: "Fuzz", version: "1" }, paths: { "/x": { get: { responses: ok } } }, components: { schemas } });
}

/** File names an archive may hold: deep, long, odd, escaping. */
const zipName = fc.oneof(
  fc.constantFrom("README.md", "SUMMARY.md", "a/b/c.md", "../escape.md", "/abs.md", "a\\b.md", "./x.md", "a//b.md", "ü/ñ.md", ".md", "index.html", "page.htm", "x.png"),
  n(60).map((d) => `${"d/".repeat(d)}deep.md`),
  n(300).map((len) => `${"n".repeat(len)}.md`),
  fc.string({ minLength: 1, maxLength: 40 }).map((s) => `${s}.md`),
);

/** ZIP archives: many small files, deep and odd names, pathological contents; and bytes that are no ZIP. */
export const pathologicalZip: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 3, arbitrary: fc.array(fc.tuple(zipName, fc.oneof(pathologicalMarkdown, pathologicalHtml)), { minLength: 1, maxLength: 8 }).map((files) => zip(Object.fromEntries(files))) },
  n(2_500).map((count) => zip(Object.fromEntries(Array.from({ length: count }, (_, i) => [`f/${i % 50}/p${i}.md`, `# Page ${i}\n\nText ${i}.\n`])))),
  fc.uint8Array({ maxLength: 4_000 }).map((bytes) => Buffer.from(bytes)),
  fc.tuple(fc.array(fc.tuple(zipName, pathologicalMarkdown), { minLength: 1, maxLength: 4 }), fc.double({ min: 0.1, max: 0.95 })).map(([files, cut]) => {
    const whole = zip(Object.fromEntries(files));
    return whole.subarray(0, Math.floor(whole.length * cut));
  }),
);

function zip(files: Record<string, string>): Buffer {
  return Buffer.from(zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)])), { level: 6 }));
}

/** Search queries: long, many words, operators and odd characters. */
export const pathologicalQuery: fc.Arbitrary<string> = fc.oneof(
  fc.array(fc.stringMatching(/^[a-z]{8}$/), { minLength: 1, maxLength: 60 }).map((w) => w.join(" ").slice(0, 512)),
  n(2_000).map((len) => "a".repeat(len)),
  n(500).map((c) => '"'.repeat(c)),
  n(500).map((c) => "* ? ~ ( ) [ ] { } : ^ - + ! && || ".repeat(Math.ceil(c / 30)).slice(0, c)),
  fc.string({ unit: "binary", maxLength: 600 }),
);

/** Paths under a published site: deep, long, encoded, escaping, odd. */
export const pathologicalSitePath: fc.Arbitrary<string> = fc.oneof(
  n(500).map((d) => "a/".repeat(d)),
  n(8_000).map((len) => "p".repeat(len)),
  n(200).map((d) => "../".repeat(d) + "etc/passwd"),
  n(200).map((d) => "%2e%2e%2f".repeat(d)),
  n(300).map((d) => "%".repeat(d)),
  fc.constantFrom("~gitbook/ogimage/x", "sitemap.xml", "robots.txt", "llms.txt", "llms-full.txt", "~gitbook/pdf?page=x", "~search?q=", ".md", "intro.md", "intro/.md"),
  fc.array(fc.constantFrom("intro", "guide", "advanced", "..", ".", "", "~", "%00", "%ff", "%c0%af", "ü", "?", "#", ";", "\\"), { maxLength: 40 }).map((s) => s.join("/")),
  fc.string({ unit: "grapheme", maxLength: 300 }).map((s) => encodeURI(s)),
);

/** Two versions of a page for a change request's diff: rewritten, shuffled, repeated lines, long lines. */
export const pathologicalDiffPair: fc.Arbitrary<[string, string]> = fc.oneof(
  n(6_000).map((lines): [string, string] => [lineText("before", lines), lineText("after", lines)]),
  n(6_000).map((lines): [string, string] => {
    const a = Array.from({ length: lines }, (_, i) => `line ${i}`);
    return [a.join("\n"), [...a].reverse().join("\n")];
  }),
  n(6_000).map((lines): [string, string] => ["x\n".repeat(lines), "x\ny\n".repeat(lines)]),
  n(20).map((lines): [string, string] => ["z".repeat(50_000 * lines).slice(0, 400_000), "z".repeat(50_000 * lines + 1).slice(0, 400_001)]),
  fc.tuple(pathologicalMarkdown, pathologicalMarkdown).map(([a, b]): [string, string] => [a.slice(0, 300_000), b.slice(0, 300_000)]),
);

function lineText(prefix: string, lines: number): string {
  return Array.from({ length: lines }, (_, i) => `${prefix} line ${i}`).join("\n");
}
