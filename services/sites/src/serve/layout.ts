// The HTML of published pages: one template (header, section tabs, site-space variants, page tree,
// the page, previous/next, table of contents, footer) and the stylesheet. No script anywhere; every
// text is escaped here, and the page body comes already sanitized (markdown.ts).
import { escapeHtml, type TocEntry } from "@docshelf/document";

export interface NavLink {
  title: string;
  href: string;
  current: boolean;
}

export interface NavNode extends NavLink {
  children: NavNode[];
  /** The node has children that are not shown (collapsed). */
  collapsed: boolean;
  /** A link standing for pages of this level left out of the sidebar. */
  more?: boolean;
}

export interface Chrome {
  siteTitle: string;
  /** Where the site's root is ("/" on its own host). */
  homeHref: string;
  /** The site's base path ("" on its own host): the search form and stylesheet live under it. */
  base: string;
  locale: string;
  stylesheetHref: string;
  logo?: string;
  announcement?: { message: string; style: string; link?: { title: string; href: string } };
  footer: { groups: Array<{ title: string; links: Array<{ title: string; href: string }> }>; copyright?: string };
  sections: NavLink[];
  variants: NavLink[];
  indexable: boolean;
}

export interface PageView {
  title: string;
  description?: string;
  canonical?: string;
  bodyHtml: string;
  toc: TocEntry[];
  tree: NavNode[];
  previous?: { title: string; href: string };
  next?: { title: string; href: string };
  noindex?: boolean;
}

const e = escapeHtml;

function head(chrome: Chrome, title: string, description: string | undefined, noindex: boolean, canonical?: string): string {
  const fullTitle = title && title !== chrome.siteTitle ? `${title} | ${chrome.siteTitle}` : chrome.siteTitle;
  return [
    "<!doctype html>",
    `<html lang="${e(chrome.locale)}">`,
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${e(fullTitle)}</title>`,
    description ? `<meta name="description" content="${e(description)}">` : "",
    `<meta property="og:title" content="${e(fullTitle)}">`,
    description ? `<meta property="og:description" content="${e(description)}">` : "",
    `<meta name="robots" content="${noindex || !chrome.indexable ? "noindex, nofollow" : "index, follow"}">`,
    canonical ? `<link rel="canonical" href="${e(canonical)}">` : "",
    `<link rel="stylesheet" href="${e(chrome.stylesheetHref)}">`,
    "</head>",
  ]
    .filter(Boolean)
    .join("\n");
}

function header(chrome: Chrome, query = ""): string {
  const parts: string[] = [];
  if (chrome.announcement) {
    const a = chrome.announcement;
    const link = a.link ? ` <a href="${e(a.link.href)}">${e(a.link.title)}</a>` : "";
    parts.push(`<div class="announcement announcement-${e(a.style)}" role="note">${e(a.message)}${link}</div>`);
  }
  const logo = chrome.logo ? `<img class="logo" src="${e(chrome.logo)}" alt="">` : "";
  parts.push(
    '<header class="site-header">',
    `<a class="site-title" href="${e(chrome.homeHref)}">${logo}<span>${e(chrome.siteTitle)}</span></a>`,
    `<form class="search" role="search" method="get" action="${e(`${chrome.base}/~search`)}">`,
    `<input type="search" name="q" value="${e(query)}" placeholder="Search" aria-label="Search" maxlength="512">`,
    '<button type="submit">Search</button>',
    "</form>",
    "</header>",
  );
  if (chrome.sections.length > 1) parts.push(navList("sections", "Sections", chrome.sections));
  if (chrome.variants.length > 1) parts.push(navList("variants", "Versions", chrome.variants));
  return parts.join("\n");
}

function navList(className: string, label: string, links: NavLink[]): string {
  const items = links.map((l) => `<li><a href="${e(l.href)}"${l.current ? ' aria-current="page"' : ""}>${e(l.title)}</a></li>`);
  return `<nav class="${className}" aria-label="${e(label)}"><ul>${items.join("")}</ul></nav>`;
}

function treeHtml(nodes: NavNode[]): string {
  if (!nodes.length) return "";
  const items = nodes.map((node) => {
    const cls = node.more ? ' class="more"' : node.collapsed ? ' class="collapsed"' : "";
    const current = node.current ? ' aria-current="page"' : "";
    return `<li${cls}><a href="${e(node.href)}"${current}>${e(node.title)}</a>${treeHtml(node.children)}</li>`;
  });
  return `<ul>${items.join("")}</ul>`;
}

function footer(chrome: Chrome): string {
  const groups = chrome.footer.groups.map(
    (g) => `<div class="footer-group"><h2>${e(g.title)}</h2><ul>${g.links.map((l) => `<li><a href="${e(l.href)}">${e(l.title)}</a></li>`).join("")}</ul></div>`,
  );
  const copyright = chrome.footer.copyright ? `<p class="copyright">${e(chrome.footer.copyright)}</p>` : "";
  return `<footer class="site-footer">${groups.join("")}${copyright}</footer>`;
}

export function pageHtml(chrome: Chrome, page: PageView): string {
  const toc = page.toc.length
    ? `<aside class="toc" aria-label="On this page"><h2>On this page</h2><ul>${page.toc
        .map((t) => `<li class="toc-${t.level}"><a href="#${e(t.id)}">${e(t.title)}</a></li>`)
        .join("")}</ul></aside>`
    : "";
  const pagination: string[] = [];
  if (page.previous) pagination.push(`<a rel="prev" class="previous" href="${e(page.previous.href)}"><small>Previous</small> ${e(page.previous.title)}</a>`);
  if (page.next) pagination.push(`<a rel="next" class="next" href="${e(page.next.href)}"><small>Next</small> ${e(page.next.title)}</a>`);
  return [
    head(chrome, page.title, page.description, !!page.noindex, page.canonical),
    "<body>",
    header(chrome),
    '<div class="layout">',
    `<nav class="sidebar" aria-label="Pages">${treeHtml(page.tree)}</nav>`,
    "<main>",
    "<article>",
    `<h1>${e(page.title)}</h1>`,
    page.description ? `<p class="description">${e(page.description)}</p>` : "",
    page.bodyHtml,
    "</article>",
    pagination.length ? `<nav class="pagination" aria-label="Pagination">${pagination.join("")}</nav>` : "",
    "</main>",
    toc,
    "</div>",
    footer(chrome),
    "</body>",
    "</html>",
  ]
    .filter(Boolean)
    .join("\n");
}

export interface SearchResultView {
  title: string;
  href: string;
  sections: Array<{ title: string; href: string; excerpt: string }>;
}

export function searchHtml(chrome: Chrome, query: string, results: SearchResultView[]): string {
  const list = results.length
    ? `<ol class="search-results">${results
        .map(
          (r) =>
            `<li><a href="${e(r.href)}">${e(r.title)}</a>${
              r.sections.length ? `<ul>${r.sections.map((s) => `<li><a href="${e(s.href)}">${e(s.title)}</a><p>${e(s.excerpt)}</p></li>`).join("")}</ul>` : ""
            }</li>`,
        )
        .join("")}</ol>`
    : query
      ? `<p class="no-results">No results for “${e(query)}”.</p>`
      : "<p>Type words to search for.</p>";
  return [
    head(chrome, query ? `Search: ${query}` : "Search", undefined, true),
    "<body>",
    header(chrome, query),
    '<div class="layout">',
    "<main>",
    `<h1>Search</h1>`,
    list,
    "</main>",
    "</div>",
    footer(chrome),
    "</body>",
    "</html>",
  ].join("\n");
}

/** A page for refusals and misses: no site content, no navigation, nothing to index. */
export function messageHtml(title: string, message: string, stylesheetHref?: string): string {
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex, nofollow">',
    `<title>${e(title)}</title>`,
    stylesheetHref ? `<link rel="stylesheet" href="${e(stylesheetHref)}">` : "",
    "</head>",
    '<body class="message">',
    "<main>",
    `<h1>${e(title)}</h1>`,
    `<p>${e(message)}</p>`,
    "</main>",
    "</body>",
    "</html>",
  ]
    .filter(Boolean)
    .join("\n");
}

/**
 * The page shown instead of redirecting to another site, for a site served on the instance's own host
 * by an organization without a verified domain: the instance's domain is no open redirect.
 */
export function leavingHtml(siteTitle: string, url: string, stylesheetHref?: string): string {
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex, nofollow">',
    '<meta name="referrer" content="no-referrer">',
    `<title>This link leaves ${e(siteTitle)}</title>`,
    stylesheetHref ? `<link rel="stylesheet" href="${e(stylesheetHref)}">` : "",
    "</head>",
    '<body class="message">',
    "<main>",
    `<h1>This link leaves ${e(siteTitle)}</h1>`,
    "<p>It goes to another website, which this documentation does not control. Continue only if you trust it:</p>",
    `<p><a class="external-destination" href="${e(url)}" rel="noopener noreferrer nofollow">${e(url)}</a></p>`,
    "</main>",
    "</body>",
    "</html>",
  ]
    .filter(Boolean)
    .join("\n");
}

/** The site's stylesheet: the primary color is the only thing that varies (a validated #hex). */
export function stylesheet(primaryColor: string): string {
  const color = /^#(?:[0-9a-fA-F]{3}){1,2}$/.test(primaryColor) ? primaryColor : "#346DDB";
  return `:root { --primary: ${color}; --text: #1f2328; --muted: #59636e; --line: #d1d9e0; --bg: #ffffff; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.6 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--text); background: var(--bg); }
a { color: var(--primary); }
.announcement { padding: .5rem 1.5rem; background: var(--primary); color: #fff; }
.announcement a { color: #fff; font-weight: 600; }
.site-header { display: flex; align-items: center; justify-content: space-between; gap: 1rem; padding: .75rem 1.5rem; border-bottom: 1px solid var(--line); }
.site-title { display: flex; align-items: center; gap: .5rem; font-weight: 700; font-size: 1.15rem; text-decoration: none; color: var(--text); }
.logo { height: 32px; }
.search input { padding: .35rem .6rem; border: 1px solid var(--line); border-radius: 6px; min-width: 16rem; }
.search button { padding: .35rem .8rem; border: 0; border-radius: 6px; background: var(--primary); color: #fff; }
.sections ul, .variants ul { display: flex; gap: 1.25rem; list-style: none; margin: 0; padding: .5rem 1.5rem; border-bottom: 1px solid var(--line); }
.sections a, .variants a { text-decoration: none; }
[aria-current="page"] { font-weight: 700; }
.layout { display: grid; grid-template-columns: 16rem minmax(0, 1fr) 14rem; gap: 2rem; padding: 1.5rem; max-width: 90rem; margin: 0 auto; }
.sidebar ul { list-style: none; padding-left: .9rem; margin: 0; }
.sidebar > ul { padding-left: 0; }
.sidebar li { margin: .2rem 0; }
.sidebar a { text-decoration: none; color: var(--text); }
.sidebar a[aria-current="page"] { color: var(--primary); }
.sidebar .collapsed > a::after { content: " ›"; color: var(--muted); }
.sidebar .more > a { color: var(--muted); font-style: italic; }
main { min-width: 0; }
.description { color: var(--muted); font-size: 1.1rem; }
pre { background: #f6f8fa; padding: 1rem; overflow: auto; border-radius: 6px; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9em; }
table { border-collapse: collapse; }
th, td { border: 1px solid var(--line); padding: .3rem .6rem; }
img { max-width: 100%; }
.pagination { display: flex; justify-content: space-between; gap: 1rem; margin-top: 3rem; }
.pagination a { display: block; padding: .75rem 1rem; border: 1px solid var(--line); border-radius: 8px; text-decoration: none; }
.pagination small { display: block; color: var(--muted); }
.pagination .next { margin-left: auto; text-align: right; }
.toc { font-size: .9rem; }
.toc h2 { font-size: .8rem; text-transform: uppercase; color: var(--muted); }
.toc ul { list-style: none; padding: 0; }
.toc .toc-3 { padding-left: .8rem; }
.search-results > li { margin-bottom: 1rem; }
.site-footer { border-top: 1px solid var(--line); padding: 1.5rem; display: flex; flex-wrap: wrap; gap: 2rem; color: var(--muted); }
.site-footer h2 { font-size: .9rem; }
.site-footer ul { list-style: none; padding: 0; }
body.message main { max-width: 40rem; margin: 4rem auto; padding: 0 1.5rem; }
@media (max-width: 60rem) { .layout { grid-template-columns: 1fr; } .toc { display: none; } }
`;
}
