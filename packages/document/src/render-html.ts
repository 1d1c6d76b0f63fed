// A page's Markdown as safe HTML, for the published sites and the app alike: parsed into GitBook's JSON
// document (parse.ts) and rendered block by block (render/render-document.ts), then `{{ space.vars.NAME }}`
// substituted. The XSS corpus (xss-corpus.ts) is what it must render inert, inside every block type.
import { splitFrontMatter } from "./front-matter";
import { markdownToDocument } from "./parse";
import { renderDocument, type RenderOptions, type RenderedPage } from "./render/render-document";
import { sanitizeAuthorHtml } from "./render/sanitizers";

export type { LinkCard, RenderOptions, RenderedPage, TocEntry } from "./render/render-document";

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);
}

const VARIABLE = /\{\{\s*(space\.vars|page\.vars|vars)\.([A-Za-z_][\w-]*)\s*\}\}/g;

/** Substitutes known variables, HTML-escaped; unknown ones stay as written so a reader sees what is missing. */
export function substituteVariables(html: string, spaceVars: Record<string, string>, pageVars: Record<string, string>): string {
  return html.replace(VARIABLE, (whole, scope: string, name: string) => {
    const vars = scope === "page.vars" ? pageVars : spaceVars;
    return Object.prototype.hasOwnProperty.call(vars, name) ? escapeHtml(String(vars[name])) : whole;
  });
}

/** GitBook's Markdown for an expression on a variable (what its Git sync writes), read as `{{ scope.vars.NAME }}`. */
const EXPRESSION = /<code class="expression">\s*(space|page)\.vars\.([A-Za-z_][\w-]*)\s*<\/code>/g;

function expressions(markdown: string): string {
  return markdown.replace(EXPRESSION, (_whole, scope: string, name: string) => `{{ ${scope}.vars.${name} }}`);
}

/**
 * Renders a page body (front matter left out); the HTML is sanitized whatever the Markdown holds. Included
 * reusable contents (the `reusableContent` option) are rendered in place, their variables substituted too.
 */
export function renderMarkdown(markdown: string, options: RenderOptions = {}): RenderedPage {
  const body = expressions(splitFrontMatter(markdown).body);
  const include = options.reusableContent;
  if (include) {
    options = {
      ...options,
      reusableContent: (ref) => {
        const included = include(ref);
        return included === undefined ? undefined : expressions(included);
      },
    };
  }
  const rendered = renderDocument(markdownToDocument(body), options);
  return { html: substituteVariables(rendered.html, options.spaceVars ?? {}, options.pageVars ?? {}), toc: rendered.toc };
}

/** Sanitizes an author's HTML with the pages' allow-list (exported for the XSS corpus tests). */
export function sanitize(html: string): string {
  return sanitizeAuthorHtml(html);
}
