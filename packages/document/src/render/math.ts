// Math on the server with KaTeX, as MathML only: browsers lay it out natively, so a page needs no script,
// no font files and no inline style (the CSP allows none). `trust: false` keeps \href, \url and \htmlX out.
import katex from "katex";

/** A formula longer than this is shown as its source. */
const MAX_FORMULA = 10_000;

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);
}

/** A TeX formula as MathML wrapped in `<span class="katex">` (display: a block), or its source when it cannot be typeset. */
export function renderMath(formula: string, display: boolean): string {
  const source = formula.trim();
  if (source.length > MAX_FORMULA) return `<code class="math-source">${escape(source)}</code>`;
  try {
    const html = katex.renderToString(source, {
      displayMode: display,
      output: "mathml",
      throwOnError: false,
      trust: false,
      strict: "ignore",
      maxSize: 50,
      maxExpand: 500,
    });
    return display ? `<div class="math-block">${html}</div>` : html;
  } catch {
    return `<code class="math-source">${escape(source)}</code>`;
  }
}
