import { readFileSync } from "node:fs";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { expectValid } from "./gitbook-schema";
import { checkDocument, DocumentError, documentToMarkdown, markdownToDocument, type Block, type ContentRef, type JSONDocument, type RefResolver } from "./index";

const corpus = readFileSync(join(__dirname, "__fixtures__", "corpus.md"), "utf8");

function types(nodes: Block[]): string[] {
  return nodes.map((n) => n.type);
}

describe("markdown <-> GitBook JSON document", () => {
  it("returns the same markdown for a corpus with every block", () => {
    const doc = markdownToDocument(corpus);
    expect(documentToMarkdown(doc)).toBe(corpus);
    // and the document is stable through a second trip
    expect(markdownToDocument(documentToMarkdown(doc))).toEqual(doc);
    expectValid(doc);
  });

  it("keeps blocks GitBook does not allow inside a hint, tab or step as their source", () => {
    const md = '{% hint style="info" %}\nText.\n\n```js\nx();\n```\n\n{% hint style="danger" %}\nInner.\n{% endhint %}\n{% endhint %}\n\n{% tabs %}\n{% tab title="A" %}\n<details>\n\n<summary>S</summary>\n\nB\n\n</details>\n\n{% endtab %}\n{% endtabs %}\n';
    const doc = markdownToDocument(md);
    const hint = doc.nodes[0];
    if (hint.type !== "hint") throw new Error("hint expected");
    expect(hint.nodes.map((n) => [n.type, n.key?.startsWith("raw-") ?? false])).toEqual([["paragraph", false], ["paragraph", true], ["paragraph", true]]);
    expectValid(doc);
    expect(documentToMarkdown(doc)).toBe(md);
  });

  it("maps each block of the corpus to GitBook's block type", () => {
    const doc = markdownToDocument(corpus);
    expect(types(doc.nodes)).toEqual([
      "heading-1", "paragraph", "paragraph", "paragraph",
      "heading-2", "list-unordered", "list-ordered", "list-tasks",
      "heading-3", "code", "code", "blockquote", "hint", "hint", "table", "divider",
      "images", "images", "file", "embed", "expandable", "tabs", "content-ref", "stepper", "math",
      "reusable-content", "paragraph", "paragraph", "paragraph",
    ]);
    // the unknown blocks are kept verbatim as raw paragraphs
    const raws = doc.nodes.filter((n) => n.type === "paragraph" && n.key?.startsWith("raw-"));
    expect(raws).toHaveLength(3);
  });

  it("reads marks, links and inline nodes", () => {
    const doc = markdownToDocument("Some **bold _both_** `x` ~~s~~ [a](https://e.com) ![i](p.png) $$x$$\n");
    const p = doc.nodes[0];
    if (p.type !== "paragraph") throw new Error("paragraph expected");
    const text = p.nodes[0];
    if (text.object !== "text") throw new Error("text expected");
    expect(text.leaves.map((l) => [l.text, l.marks.map((m) => m.type)])).toEqual([
      ["Some ", []],
      ["bold ", ["bold"]],
      ["both", ["bold", "italic"]],
      [" ", []],
      ["x", ["code"]],
      [" ", []],
      ["s", ["strikethrough"]],
      [" ", []],
    ]);
    expect(p.nodes.slice(1).map((n) => (n.object === "inline" ? n.type : "text"))).toEqual(["link", "text", "inline-image", "text", "inline-math"]);
  });

  it("reads lists with nesting, tasks and start numbers", () => {
    const doc = markdownToDocument("3. three\n4. four\n\n* [x] done\n  * [ ] open\n");
    const [ordered, tasks] = doc.nodes;
    expect(ordered).toMatchObject({ type: "list-ordered", data: { start: 3 } });
    expect(tasks).toMatchObject({ type: "list-tasks", nodes: [{ data: { checked: true } }] });
    if (tasks.type !== "list-tasks") throw new Error("tasks expected");
    expect(tasks.nodes[0].nodes[1]).toMatchObject({ type: "list-tasks", nodes: [{ data: { checked: false } }] });
    expect(documentToMarkdown(doc)).toBe("3. three\n4. four\n\n* [x] done\n  * [ ] open\n");
  });

  it("reads code blocks with language and title, tables with alignment", () => {
    const doc = markdownToDocument('{% code title="a.ts" %}\n```ts\nlet a = 1;\n\nlet b = 2;\n```\n{% endcode %}\n\n| A | B |\n| --- | --: |\n| 1 | 2 |\n');
    expect(doc.nodes[0]).toMatchObject({ type: "code", data: { syntax: "ts", title: "a.ts" } });
    if (doc.nodes[0].type !== "code") throw new Error("code expected");
    expect(doc.nodes[0].nodes).toHaveLength(3);
    const table = doc.nodes[1];
    if (table.type !== "table") throw new Error("table expected");
    expect(Object.values(table.data.definition).map((d) => [d.title, d.textAlignment])).toEqual([["A", "left"], ["B", "right"]]);
    expect(Object.keys(table.data.records)).toHaveLength(1);
    expect(table.fragments).toHaveLength(2);
  });

  it("writes a table edited as a document (new rows and columns, titles with pipes, cells left without a value) as a table that reads back the same", () => {
    const p = (text: string) => ({ object: "block" as const, type: "paragraph" as const, nodes: [{ object: "text" as const, leaves: [{ object: "leaf" as const, text, marks: [] }] }] });
    const table: Block = {
      object: "block",
      type: "table",
      isVoid: true,
      data: {
        view: { type: "grid", columns: ["c1", "c2", "c3"], hideHeader: false },
        definition: {
          c1: { id: "c1", title: "Name | alias", type: "text", textAlignment: "left" },
          c2: { id: "c2", title: "Count", type: "text", textAlignment: "right" },
          c3: { id: "c3", title: "", type: "text", textAlignment: "center" },
        },
        records: { r2: { orderIndex: "b", values: { c1: "f3" } }, r1: { orderIndex: "a", values: { c1: "f1", c2: "f2", c3: "f4" } } },
      },
      fragments: [
        { object: "fragment", fragment: "f1", nodes: [p("Ann | Annie")] },
        { object: "fragment", fragment: "f2", nodes: [p("3")] },
        { object: "fragment", fragment: "f3", nodes: [p("Bob *not bold*")] },
        { object: "fragment", fragment: "f4", nodes: [p("")] },
      ],
    };
    const doc: JSONDocument = { object: "document", data: {}, nodes: [table] };
    expectValid(doc);
    const md = documentToMarkdown(doc);
    expect(md).toBe("| Name \\| alias | Count |  |\n| --- | --: | :-: |\n| Ann \\| Annie | 3 |  |\n| Bob \\*not bold\\* |  |  |\n");
    const back = markdownToDocument(md).nodes[0];
    if (back.type !== "table") throw new Error("table expected");
    expect(back.data.view.columns.map((c) => [back.data.definition[c].title, back.data.definition[c].textAlignment])).toEqual([["Name | alias", "left"], ["Count", "right"], ["", "center"]]);
    const rows = Object.values(back.data.records).map((r) => back.data.view.columns.map((c) => documentToMarkdown({ object: "document", data: {}, nodes: back.fragments.find((f) => f.fragment === r.values[c])!.nodes }).trim()));
    expect(rows).toEqual([["Ann | Annie", "3", ""], ["Bob \\*not bold\\*", "", ""]]);
    expect(documentToMarkdown(markdownToDocument(md))).toBe(md);
  });

  it("writes an image's caption and width so they read back the same, whatever the caption's text", () => {
    for (const caption of ["A diagram", "a <b>bold</b> claim", "ends </figcaption> early", "</figure> and <img src=x>", "two\n\nlines", "100% *sure*"]) {
      for (const width of [480, { unit: "%", value: 50 }, undefined]) {
        const image: Block = {
          object: "block",
          type: "image",
          data: { ref: { kind: "url", url: "https://example.com/a.png" }, ...(width === undefined ? {} : { width }) },
          fragments: [{ object: "fragment", fragment: "caption", type: "caption", nodes: [{ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ object: "leaf", text: caption, marks: [] }] }] }] }],
          isVoid: true,
        };
        const doc: JSONDocument = { object: "document", data: {}, nodes: [{ object: "block", type: "images", data: {}, nodes: [image], isVoid: false }] };
        expectValid(doc);
        const back = markdownToDocument(documentToMarkdown(doc)).nodes;
        expect(back).toHaveLength(1);
        const read = back[0].type === "images" ? back[0].nodes[0] : undefined;
        expect(read?.data.width).toEqual(width);
        const text = read?.fragments[0].nodes[0];
        expect(text && text.type === "paragraph" ? text.nodes.map((n) => (n.object === "text" ? n.leaves.map((l) => l.text).join("") : "")).join("") : undefined).toBe(caption.replace(/\n+/g, " "));
      }
    }
  });

  it("writes an image's alt text so it reads back the same, whatever its characters", () => {
    for (const alt of ["A diagram", "", 'say "cheese"', "a <b> tag </figure>", "x > y & z", "Tom &amp; Jerry", "&quot; typed as is", "&lt&lt;&#34;&", "100% *sure* [1]"]) {
      const image: Block = { object: "block", type: "image", data: { ref: { kind: "url", url: "https://example.com/a.png" }, alt }, fragments: [], isVoid: true };
      const doc: JSONDocument = { object: "document", data: {}, nodes: [{ object: "block", type: "images", data: {}, nodes: [image], isVoid: false }] };
      const md = documentToMarkdown(doc);
      expect(md).toMatch(/^<figure><img src="https:\/\/example\.com\/a\.png" alt="[^"<>]*"><\/figure>\n$/);
      expect(markdownToDocument(md)).toEqual(doc);
    }
    // GitBook's own Markdown, an entity written for a character, reads as that character.
    const read = markdownToDocument('<figure><img src="https://example.com/a.png" alt="R&amp;D &quot;lab&quot;"><figcaption><p>c</p></figcaption></figure>\n').nodes[0];
    expect(read.type === "images" ? read.nodes[0].data.alt : undefined).toBe('R&D "lab"');
  });

  it("resolves links, images, files and includes through the resolver, both ways", () => {
    const resolver: RefResolver = {
      toRef: (href, use) => {
        if (href === "guide.md") return { kind: "page", page: "pg1" };
        if (href === "./report-ref" || href === "report.pdf") return { kind: "file", file: "f1" };
        if (use === "include" && href === "inc.md") return { kind: "reusable-content", reusableContent: "rc1" };
        return undefined;
      },
      toHref: (ref: ContentRef) => (ref.kind === "page" ? "guide.md" : ref.kind === "file" ? "report.pdf" : ref.kind === "reusable-content" ? "inc.md" : undefined),
    };
    const md = '[Guide](guide.md) [File](./report-ref)\n\n{% file src="report.pdf" %}\n\n{% include "inc.md" %}\n';
    const doc = markdownToDocument(md, resolver);
    expect(JSON.stringify(doc)).toContain('{"kind":"page","page":"pg1"}');
    expect(doc.nodes[1]).toMatchObject({ type: "file", data: { ref: { kind: "file", file: "f1" } } });
    expect(doc.nodes[2]).toMatchObject({ type: "reusable-content", data: { ref: { kind: "reusable-content", reusableContent: "rc1" } } });
    expect(documentToMarkdown(doc, resolver)).toBe('[Guide](guide.md) [File](report.pdf)\n\n{% file src="report.pdf" %}\n\n{% include "inc.md" %}\n');
  });

  it("escapes text that would otherwise read as markup", () => {
    const doc: JSONDocument = {
      object: "document",
      data: {},
      nodes: [{ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ object: "leaf", text: "# not *a* [heading] snake_case _x_", marks: [] }] }] }],
    };
    const md = documentToMarkdown(doc);
    expect(md).toBe("\\# not \\*a\\* \\[heading\\] snake_case \\_x\\_\n");
    expect(markdownToDocument(md)).toEqual(doc);
  });

  it("reads GitBook's heading anchors as heading ids and writes them back", () => {
    const md = '## Why AddOns? <a href="#why-addons" id="why-addons"></a>\n';
    const doc = markdownToDocument(md);
    expect(doc.nodes[0]).toMatchObject({ type: "heading-2", data: { id: "why-addons" }, nodes: [{ leaves: [{ text: "Why AddOns?" }] }] });
    expect(documentToMarkdown(doc)).toBe(md);
  });

  it("keeps unknown blocks as their source text", () => {
    const md = "{% swagger %}\nbody\n{% endswagger %}\n\n{% unknown-single %}\n\n##### deep\n";
    expect(documentToMarkdown(markdownToDocument(md))).toBe(md);
  });

  it("names the wrong field of a bad document", () => {
    expect(() => checkDocument({ object: "document", nodes: [{ object: "block", type: "nope", nodes: [] }] })).toThrow(DocumentError);
    try {
      checkDocument({ object: "document", nodes: [{ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ object: "leaf" }] }] }] });
      throw new Error("should have thrown");
    } catch (e) {
      expect((e as DocumentError).path).toBe("document.nodes[0].nodes[0].leaves[0]");
    }
    expect(() => checkDocument({ nodes: [] })).toThrow("document.object");
    expect(checkDocument(markdownToDocument(corpus))).toBeTruthy();
  });

  // The pages of the real GitBook-synced repositories the Git sync tests use (test/fixtures/git-sync).
  const fixtures = join(__dirname, "..", "..", "..", "test", "fixtures", "git-sync");
  const pages: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".md") && name !== "SUMMARY.md") pages.push(path);
    }
  };
  walk(fixtures);
  const withoutKeys = (doc: JSONDocument): unknown => JSON.parse(JSON.stringify(doc, (k, v: unknown) => (k === "key" ? undefined : v)));

  it("italic text touching a letter outside (Chinese, Japanese, mid-word) is written with `*`, so it reads back as italic", () => {
    for (const source of ["传*mystruct 类型（也只能传*mystruct 类型）", "un*frigging*believable", "*emphasis*です", "plain _italic_ here"]) {
      const doc = markdownToDocument(source);
      const written = documentToMarkdown(doc);
      expect([source, withoutKeys(markdownToDocument(written))]).toEqual([source, withoutKeys(doc)]);
    }
    // Where `_` works (at word edges), it is still what is written.
    expect(documentToMarkdown(markdownToDocument("plain *italic* here")).trim()).toBe("plain _italic_ here");
  });

  it("reads every page of the real repositories as a valid document that survives its own Markdown", () => {
    expect(pages.length).toBeGreaterThan(40);
    let exact = 0;
    for (const page of pages) {
      const markdown = readFileSync(page, "utf8").replace(/^---\n[\s\S]*?\n---\n+/, "");
      const doc = markdownToDocument(markdown);
      expectValid(doc);
      const written = documentToMarkdown(doc);
      // Nothing is lost: the written Markdown reads back as the same document, and is a fixed point.
      expect([page, withoutKeys(markdownToDocument(written))]).toEqual([page, withoutKeys(doc)]);
      expect([page, documentToMarkdown(markdownToDocument(written))]).toEqual([page, written]);
      if (written === markdown) exact++;
    }
    // Byte-for-byte only where the page is already in the canonical form (most are hand-written or pandoc output).
    expect(exact).toBeGreaterThan(0);
  });
});
