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
