import { htmlToMarkdown } from "./to-markdown";

describe("htmlToMarkdown", () => {
  it("writes ATX headings", () => {
    expect(htmlToMarkdown("<h2>Install</h2><h3>On Linux</h3>")).toBe("## Install\n\n### On Linux");
  });

  it("writes bullet, numbered and nested lists", () => {
    const md = htmlToMarkdown("<ul><li>one<ul><li>inner</li></ul></li><li>two</li></ul><ol><li>first</li><li>second</li></ol>");
    expect(md).toMatch(/^- +one\n +- +inner\n- +two/);
    expect(md).toMatch(/1\. +first\n2\. +second/);
  });

  it("writes fenced code blocks with their language, and inline code", () => {
    const md = htmlToMarkdown('<p>Run <code>npm ci</code>:</p><pre><code class="language-bash">npm ci\nnpm start\n</code></pre>');
    expect(md).toContain("Run `npm ci`:");
    expect(md).toContain("```bash\nnpm ci\nnpm start\n```");
  });

  it("writes links, emphasis and strikethrough", () => {
    expect(htmlToMarkdown('<p><a href="guide">the guide</a>, <strong>bold</strong>, <em>it</em>, <del>old</del></p>')).toBe(
      "[the guide](guide), **bold**, _it_, ~~old~~",
    );
  });

  it("writes tables as GFM tables", () => {
    const md = htmlToMarkdown("<table><thead><tr><th>Name</th><th>Type</th></tr></thead><tbody><tr><td>id</td><td>string</td></tr></tbody></table>");
    expect(md.split("\n").map((l) => l.replace(/\s+/g, " "))).toEqual(["| Name | Type |", "| --- | --- |", "| id | string |"]);
  });
});

describe("htmlToMarkdown of tables", () => {
  const rows = (n: number, cells: (i: number) => string) => Array.from({ length: n }, (_, i) => `<tr>${cells(i)}</tr>`).join("");

  it("gives a table without a heading row an empty heading, aligned as most of each column's cells", () => {
    const md = htmlToMarkdown(`<table>${rows(3, (i) => `<td align="right">${i}</td><td>x${i}</td><td align="center">c</td>`)}</table>`);
    expect(md.split("\n").map((l) => l.replace(/\s+/g, " "))).toEqual(["| | | |", "| ---: | --- | :---: |", "| 0 | x0 | c |", "| 1 | x1 | c |", "| 2 | x2 | c |"]);
  });

  it("converts every row of a 5,000-row table, in order (each table's rows are listed once, not once per row)", () => {
    const md = htmlToMarkdown(`<table><tr><th>n</th><th>square</th></tr>${rows(5000, (i) => `<td>${i}</td><td><b>${i * i}</b></td>`)}</table>`);
    const lines = md.split("\n");
    expect(lines).toHaveLength(5002);
    expect(lines[1].replace(/\s+/g, " ")).toBe("| --- | --- |");
    expect(lines[2].replace(/\s+/g, " ")).toBe("| 0 | **0** |");
    expect(lines[5001].replace(/\s+/g, " ")).toBe("| 4999 | **24990001** |");
  });

  it("keeps a table holding a list as HTML and skips an outer layout table around a table, as the gfm plugin does", () => {
    expect(htmlToMarkdown("<table><tr><td><ul><li>a</li></ul></td><td>b</td></tr></table>")).toContain("<table>");
    const nested = htmlToMarkdown("<table><tr><td><table><tr><th>h</th></tr><tr><td>inner</td></tr></table></td><td>x</td></tr></table>");
    expect(nested.split("\n").map((l) => l.replace(/\s+/g, " "))).toEqual(["| h |", "| --- |", "| inner |", "", "x"]);
  });
});
