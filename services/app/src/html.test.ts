import { html, trusted } from "./html";
import { renderMarkdown } from "@docshelf/document";

describe("templates", () => {
  test("interpolated text is escaped, in text and in attributes", () => {
    const title = `"><script>alert(1)</script>`;
    expect(html`<a title="${title}">${title}</a>`.value).toBe(
      '<a title="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</a>',
    );
  });

  test("Html and arrays of it are kept; null, undefined and false are nothing", () => {
    const items = ["<a>", "b"].map((s) => html`<li>${s}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${trusted("<hr>")}`.value).toBe("<ul><li>&lt;a&gt;</li><li>b</li></ul><hr>");
  });
});

describe("Markdown", () => {
  test("raw HTML and script links do not survive; headings get anchors", () => {
    const out = renderMarkdown("# Intro\n\n<script>alert(1)</script> [x](javascript:alert(1)) ![i](javascript:x)\n").html;
    expect(out).toContain('<h1 id="intro" class="heading">Intro<a class="anchor" href="#intro"');
    expect(out).not.toMatch(/<script|href="javascript|src="javascript/i);
  });
});
