// Reads an HTML page: its title, the links it holds, and the element with its main content.
import { parse, type HTMLElement } from "node-html-parser";
import { resolveHref } from "./urls";

export interface ParsedPage {
  title: string;
  /** Every http(s) link of the document, navigation included, resolved against the page. */
  links: URL[];
  /** The main content (main, article, or body) with scripts, styles, navigation and footers removed. */
  content: HTMLElement;
  /** The base links and images are resolved against (the page URL, or its <base href>). */
  base: URL;
}

const NOT_CONTENT = "script, style, noscript, template, iframe, object, embed, nav, footer, aside, form, button, svg, canvas, link, meta";

function textOf(element: HTMLElement | null | undefined): string {
  return element ? element.text.replace(/\s+/g, " ").trim() : "";
}

function mainContent(root: HTMLElement): HTMLElement {
  const main = root.querySelector("main") ?? root.querySelector("article") ?? root.querySelector("[role=main]");
  if (main) return main;
  const body = root.querySelector("body") ?? root;
  // Without a main element, a page-wide header is the site's banner, not content.
  for (const header of body.querySelectorAll("header")) if (!header.closest("article, section")) header.remove();
  return body;
}

export function parsePage(html: string, url: URL): ParsedPage {
  const root = parse(html, { comment: false });
  const baseHref = root.querySelector("base[href]")?.getAttribute("href");
  const base = (baseHref && resolveHref(baseHref, url)) || url;

  const links: URL[] = [];
  for (const a of root.querySelectorAll("a[href]")) {
    const target = resolveHref(a.getAttribute("href") ?? "", base);
    if (target) links.push(target);
  }

  for (const element of root.querySelectorAll(NOT_CONTENT)) element.remove();
  const content = mainContent(root);

  // The page's own heading is its title; the document title is the fallback.
  const heading = content.querySelector("h1");
  let title = textOf(heading);
  if (title) heading?.remove();
  else title = textOf(root.querySelector("title"));

  return { title, links, content, base };
}

/**
 * Points links at imported pages to their page paths (via `pagePathOf`), every other link and
 * image at its absolute URL, so nothing in the markdown depends on the original site's layout.
 */
export function rewriteLinks(content: HTMLElement, base: URL, pagePathOf: (target: URL) => string | undefined): void {
  for (const a of content.querySelectorAll("a[href]")) {
    const href = a.getAttribute("href") ?? "";
    if (href.startsWith("#")) continue;
    const target = resolveHref(href, base);
    if (!target) continue;
    const pagePath = pagePathOf(target);
    a.setAttribute("href", pagePath !== undefined ? `${pagePath}${target.hash}` : target.href);
  }
  for (const img of content.querySelectorAll("img[src]")) {
    const target = resolveHref(img.getAttribute("src") ?? "", base);
    if (target) img.setAttribute("src", target.href);
  }
}
