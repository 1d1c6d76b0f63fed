// The HTML of published pages: one template (header, section tabs, site-space variants, page tree,
// the page, previous/next, table of contents, footer) and the stylesheet (light and dark themes, a
// drawer for the page tree below 60rem that opens without script). One script (client/site.ts, served
// hashed) adds the theme toggle, tab switching and copy buttons; a page reads fully without it. Every
// text is escaped here, and the page body comes already sanitized (@docshelf/document's renderer).
import { escapeHtml, type TocEntry } from "@docshelf/document";
import type { SocialPlatform } from "../customization";
import { SOCIAL_ICON_PATHS } from "./social-icons";

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
  /** The hashed client script (theme toggle, tabs, copy buttons), when built. */
  scriptHref?: string;
  /** The site's theme: `fixed` when readers may not switch (else the system's, or the reader's remembered choice). */
  theme: { fixed?: "light" | "dark"; toggle: boolean };
  /** GitBook's header items: a link (`href`) and/or a menu of `links`. */
  headerLinks?: Array<{ title: string; href?: string; style: "link" | "button-primary" | "button-secondary"; links: Array<{ title: string; href: string }> }>;
  /** Header logo per theme (the same URL twice when the site gives one). */
  logo?: { light: string; dark: string };
  /** Footer logo per theme. */
  footerLogo?: { light: string; dark: string };
  /** Favicon: an image per theme, or the site's emoji drawn as SVG. */
  favicon?: { light: string; dark: string } | { svg: string };
  announcement?: { message: string; style: string; link?: { title: string; href: string } };
  footer: { groups: Array<{ title: string; links: Array<{ title: string; href: string }> }>; copyright?: string };
  /** The site's social accounts, where the customization shows them; `newTab` when external links open in a new tab. */
  social?: { header: SocialLink[]; footer: SocialLink[]; newTab: boolean };
  sections: NavLink[];
  variants: NavLink[];
  indexable: boolean;
}

/** A social account as a link: its platform (for the icon), its name for readers (`GitHub: acme`) and profile URL. */
export interface SocialLink {
  platform: SocialPlatform;
  label: string;
  href: string;
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
  /** When the page last changed in the published revision. */
  lastUpdated?: { iso: string; text: string };
  /** "Edit on GitHub/GitLab" for a page of a Git-synced space, when the site asks for it. */
  editLink?: { label: string; href: string };
}

/** An image per theme: one <img>, or two that the stylesheet shows by theme. */
function themedImg(className: string, pair: { light: string; dark: string }, alt = ""): string {
  if (pair.light === pair.dark) return `<img class="${className}" src="${e(pair.light)}" alt="${e(alt)}">`;
  return `<img class="${className} logo-light" src="${e(pair.light)}" alt="${e(alt)}"><img class="${className} logo-dark" src="${e(pair.dark)}" alt="${e(alt)}">`;
}

function faviconLinks(chrome: Chrome): string {
  const icon = chrome.favicon;
  if (!icon) return "";
  if ("svg" in icon) return `<link rel="icon" type="image/svg+xml" href="${e(icon.svg)}">`;
  if (icon.light === icon.dark) return `<link rel="icon" href="${e(icon.light)}">`;
  return `<link rel="icon" href="${e(icon.light)}" media="(prefers-color-scheme: light)">\n<link rel="icon" href="${e(icon.dark)}" media="(prefers-color-scheme: dark)">`;
}

const e = escapeHtml;

function head(chrome: Chrome, title: string, description: string | undefined, noindex: boolean, canonical?: string): string {
  const fullTitle = title && title !== chrome.siteTitle ? `${title} | ${chrome.siteTitle}` : chrome.siteTitle;
  return [
    "<!doctype html>",
    `<html lang="${e(chrome.locale)}"${themeAttributes(chrome)}>`,
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="color-scheme" content="${chrome.theme.fixed ?? "light dark"}">`,
    `<title>${e(fullTitle)}</title>`,
    description ? `<meta name="description" content="${e(description)}">` : "",
    `<meta property="og:title" content="${e(fullTitle)}">`,
    description ? `<meta property="og:description" content="${e(description)}">` : "",
    `<meta name="robots" content="${noindex || !chrome.indexable ? "noindex, nofollow" : "index, follow"}">`,
    canonical ? `<link rel="canonical" href="${e(canonical)}">` : "",
    `<link rel="stylesheet" href="${e(chrome.stylesheetHref)}">`,
    faviconLinks(chrome),
    chrome.scriptHref ? `<script src="${e(chrome.scriptHref)}"></script>` : "",
    "</head>",
  ]
    .filter(Boolean)
    .join("\n");
}

function themeAttributes(chrome: Chrome): string {
  if (chrome.theme.fixed) return ` data-theme="${chrome.theme.fixed}"`;
  return chrome.theme.toggle ? ' data-theme-toggle="true"' : "";
}

function header(chrome: Chrome, query = "", withMenu = false): string {
  const parts: string[] = [];
  if (chrome.announcement) {
    const a = chrome.announcement;
    const link = a.link ? ` <a href="${e(a.link.href)}">${e(a.link.title)}</a>` : "";
    parts.push(`<div class="announcement announcement-${e(a.style)}" role="note">${e(a.message)}${link}</div>`);
  }
  const logo = chrome.logo ? themedImg("logo", chrome.logo) : "";
  parts.push(
    '<header class="site-header">',
    withMenu ? '<a class="menu-button" href="#site-nav" aria-label="Open the page menu">☰</a>' : "",
    `<a class="site-title" href="${e(chrome.homeHref)}">${logo}<span>${e(chrome.siteTitle)}</span></a>`,
    headerLinksHtml(chrome),
    socialHtml(chrome, "header"),
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

/** Header items: links, or menus that open without script (<details>). */
function headerLinksHtml(chrome: Chrome): string {
  const items = chrome.headerLinks ?? [];
  if (!items.length) return "";
  const li = items.map((item) => {
    const cls = item.style === "link" ? "header-link" : `header-link button ${item.style === "button-primary" ? "primary" : "secondary"}`;
    if (!item.links.length) return `<li><a class="${cls}" href="${e(item.href ?? "")}">${e(item.title)}</a></li>`;
    const sub = item.links.map((l) => `<li><a href="${e(l.href)}">${e(l.title)}</a></li>`);
    if (item.href) sub.unshift(`<li><a href="${e(item.href)}">${e(item.title)}</a></li>`);
    return `<li><details class="header-menu"><summary>${e(item.title)}</summary><ul>${sub.join("")}</ul></details></li>`;
  });
  return `<nav class="header-links" aria-label="Site links"><ul>${li.join("")}</ul></nav>`;
}

/** Social accounts as icon links, each named for screen readers (the icon is decoration), opening off-site safely. */
function socialHtml(chrome: Chrome, place: "header" | "footer"): string {
  const links = chrome.social?.[place] ?? [];
  if (!links.length) return "";
  const target = chrome.social?.newTab ? ' target="_blank"' : "";
  const li = links.map(
    (l) =>
      `<li><a class="social-link social-${e(l.platform)}" href="${e(l.href)}" rel="me noopener noreferrer"${target} aria-label="${e(l.label)}" title="${e(l.label)}">` +
      `<svg class="social-icon" viewBox="0 0 256 256" width="20" height="20" fill="currentColor" aria-hidden="true" focusable="false">${SOCIAL_ICON_PATHS[l.platform]}</svg></a></li>`,
  );
  // One navigation landmark (the header's); the footer's list sits in the footer's own landmark, so no two landmarks share a name.
  if (place === "header") return `<nav class="social-links social-header" aria-label="Social accounts"><ul>${li.join("")}</ul></nav>`;
  return `<div class="social-links social-footer"><ul aria-label="Social accounts">${li.join("")}</ul></div>`;
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
  const logo = chrome.footerLogo ? `<div class="footer-logo">${themedImg("footer-logo-img", chrome.footerLogo, chrome.siteTitle)}</div>` : "";
  return `<footer class="site-footer">${logo}${groups.join("")}${socialHtml(chrome, "footer")}${copyright}</footer>`;
}

function pageMeta(page: PageView): string {
  const parts: string[] = [];
  if (page.lastUpdated) parts.push(`<p class="last-updated">Last updated <time datetime="${e(page.lastUpdated.iso)}">${e(page.lastUpdated.text)}</time></p>`);
  if (page.editLink) parts.push(`<a class="edit-link" href="${e(page.editLink.href)}" rel="noopener noreferrer">${e(page.editLink.label)}</a>`);
  return parts.length ? `<div class="page-meta">${parts.join("")}</div>` : "";
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
    header(chrome, "", true),
    '<div class="layout">',
    `<nav class="sidebar" id="site-nav" aria-label="Pages">${treeHtml(page.tree)}</nav>`,
    '<a class="menu-close" href="#" aria-label="Close the page menu">✕</a>',
    "<main>",
    "<article>",
    `<h1>${e(page.title)}</h1>`,
    page.description ? `<p class="description">${e(page.description)}</p>` : "",
    page.bodyHtml,
    pageMeta(page),
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
  /** Each matched section's text in pieces, the query's words flagged (shown in <mark>). */
  sections: Array<{ title: string; href: string; excerpt: Array<{ text: string; match?: true }> }>;
}

function marked(pieces: Array<{ text: string; match?: true }>): string {
  return pieces.map((p) => (p.match ? `<mark>${e(p.text)}</mark>` : e(p.text))).join("");
}

export function searchHtml(chrome: Chrome, query: string, results: SearchResultView[]): string {
  const list = results.length
    ? `<ol class="search-results">${results
        .map(
          (r) =>
            `<li><a href="${e(r.href)}">${e(r.title)}</a>${
              r.sections.length ? `<ul>${r.sections.map((s) => `<li><a href="${e(s.href)}">${e(s.title)}</a><p>${marked(s.excerpt)}</p></li>`).join("")}</ul>` : ""
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

/**
 * A path of a site the visitor may read that shows no page: the site's header (with its search box), a
 * search form and a link home, so a stale link still leads somewhere. Served with status 404.
 */
export function notFoundPageHtml(chrome: Chrome): string {
  return [
    head(chrome, "Page not found", undefined, true),
    "<body>",
    header(chrome),
    '<div class="layout layout-narrow">',
    '<main class="not-found">',
    "<h1>Page not found</h1>",
    "<p>There is no page at this address. Search the site for what you were looking for:</p>",
    `<form class="search-page-form" role="search" aria-label="Search this site" method="get" action="${e(`${chrome.base}/~search`)}">`,
    '<input type="search" name="q" placeholder="Search" aria-label="Search this site" maxlength="512">',
    '<button type="submit">Search</button>',
    "</form>",
    `<p><a href="${e(chrome.homeHref)}">Go to the home page</a></p>`,
    "</main>",
    "</div>",
    footer(chrome),
    "</body>",
    "</html>",
  ].join("\n");
}

/** The frame of the message pages: no site content, no navigation, nothing to index. */
function messagePage(title: string, body: string[], stylesheetHref: string | undefined, head: string[] = []): string {
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex, nofollow">',
    ...head,
    `<title>${e(title)}</title>`,
    stylesheetHref ? `<link rel="stylesheet" href="${e(stylesheetHref)}">` : "",
    "</head>",
    '<body class="message">',
    "<main>",
    `<h1>${e(title)}</h1>`,
    ...body,
    "</main>",
    "</body>",
    "</html>",
  ]
    .filter(Boolean)
    .join("\n");
}

/** A page for refusals and misses. */
export function messageHtml(title: string, message: string, stylesheetHref?: string): string {
  return messagePage(title, [`<p>${e(message)}</p>`], stylesheetHref);
}

/**
 * The page shown instead of redirecting to another site, for a site served on the instance's own host
 * by an organization without a verified domain: the instance's domain is no open redirect.
 */
export function leavingHtml(siteTitle: string, url: string, stylesheetHref?: string): string {
  return messagePage(
    `This link leaves ${siteTitle}`,
    [
      "<p>It goes to another website, which this documentation does not control. Continue only if you trust it:</p>",
      `<p><a class="external-destination" href="${e(url)}" rel="noopener noreferrer nofollow">${e(url)}</a></p>`,
    ],
    stylesheetHref,
    ['<meta name="referrer" content="no-referrer">'],
  );
}

/**
 * The site's stylesheet: the primary color is the only thing that varies (a validated #hex). Light by
 * default, dark when the system asks for it (unless the page fixes `data-theme="light"`) or when the page
 * or the reader's toggle sets `data-theme="dark"`; below 60rem one column and the page tree in a drawer.
 */
export function stylesheet(primaryColor: string): string {
  const color = /^#(?:[0-9a-fA-F]{3}){1,2}$/.test(primaryColor) ? primaryColor : "#346DDB";
  return `${BASE_CSS.replace("--primary: #346DDB", `--primary: ${color}`)}`;
}

const LIGHT = `--primary-text: color-mix(in srgb, var(--primary) 80%, #000); --text: #1f2328; --muted: #59636e; --line: #d1d9e0; --bg: #ffffff; --soft: #f6f8fa;
  --code-bg: #f6f8fa; --info: #2f6feb; --info-bg: #eef4ff; --success: #1a7f37; --success-bg: #eafbef; --warning: #9a6700; --warning-bg: #fff8e1;
  --danger: #cf222e; --danger-bg: #ffefef; --hl-keyword: #cf222e; --hl-string: #0a3069; --hl-comment: #59636e; --hl-number: #0550ae;
  --hl-title: #8250df; --hl-attr: #0550ae; --hl-name: #116329; --hl-meta: #953800; --mark-bg: #fff3a3; --shadow: rgb(0 0 0 / .15); color-scheme: light;`;
const DARK = `--primary-text: color-mix(in srgb, var(--primary) 55%, #fff); --text: #e6edf3; --muted: #9198a1; --line: #3d444d; --bg: #0d1117; --soft: #151b23;
  --code-bg: #151b23; --info: #79b8ff; --info-bg: #0f2340; --success: #56d364; --success-bg: #0f2a18; --warning: #e3b341; --warning-bg: #2e2410;
  --danger: #ff7b72; --danger-bg: #3a1418; --hl-keyword: #ff7b72; --hl-string: #a5d6ff; --hl-comment: #9198a1; --hl-number: #79c0ff;
  --hl-title: #d2a8ff; --hl-attr: #79c0ff; --hl-name: #7ee787; --hl-meta: #ffa657; --mark-bg: #5a4600; --shadow: rgb(0 0 0 / .6); color-scheme: dark;`;

const BASE_CSS = `:root { --primary: #346DDB; ${LIGHT} }
@media (prefers-color-scheme: dark) { :root:not([data-theme="light"]) { ${DARK} } }
:root[data-theme="dark"] { ${DARK} }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 16px/1.6 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--text); background: var(--bg); }
a { color: var(--primary-text); }
.announcement { padding: .5rem 1.5rem; background: var(--primary); color: #fff; }
.announcement a { color: #fff; font-weight: 600; }
.site-header { display: flex; flex-wrap: wrap; align-items: center; gap: .75rem 1rem; padding: .75rem 1.5rem; border-bottom: 1px solid var(--line); }
.site-title { display: flex; align-items: center; gap: .5rem; font-weight: 700; font-size: 1.15rem; text-decoration: none; color: var(--text); margin-right: auto; min-width: 0; overflow-wrap: anywhere; }
.logo { height: 32px; }
.logo-dark { display: none; }
@media (prefers-color-scheme: dark) { :root:not([data-theme="light"]) .logo-light { display: none; } :root:not([data-theme="light"]) .logo-dark { display: inline; } }
:root[data-theme="dark"] .logo-light { display: none; } :root[data-theme="dark"] .logo-dark { display: inline; }
.footer-logo { flex-basis: 100%; } .footer-logo-img { height: 28px; }
.page-meta { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: .5rem 1rem; margin-top: 2.5rem; padding-top: 1rem; border-top: 1px solid var(--line); color: var(--muted); font-size: .875rem; }
.page-meta p { margin: 0; }
.edit-link { color: var(--primary-text); }
.search { display: flex; gap: .4rem; min-width: 0; position: relative; }
.header-links ul { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
.header-link { text-decoration: none; font-weight: 500; }
.header-link.button { margin: 0; padding: .3rem .8rem; }
.header-menu { position: relative; }
.header-menu summary { cursor: pointer; color: var(--primary-text); font-weight: 500; }
.header-menu ul { position: absolute; z-index: 15; top: calc(100% + .3rem); left: 0; display: block; min-width: 12rem; padding: .4rem; background: var(--bg); border: 1px solid var(--line); border-radius: 8px; box-shadow: 0 8px 24px var(--shadow); }
.header-menu li a { display: block; padding: .3rem .5rem; text-decoration: none; }
.search-popup { position: absolute; top: calc(100% + .3rem); right: 0; z-index: 20; width: min(34rem, calc(100vw - 2rem)); max-height: 70vh; overflow-y: auto; margin: 0; padding: .3rem; list-style: none; background: var(--bg); border: 1px solid var(--line); border-radius: 8px; box-shadow: 0 8px 24px var(--shadow); }
.search-popup[hidden] { display: none; }
.search-popup [role="option"] { display: flex; flex-direction: column; gap: .1rem; padding: .5rem .7rem; border-radius: 6px; cursor: pointer; overflow-wrap: anywhere; }
.search-popup [role="option"]:hover { background: var(--soft); }
.search-popup [role="option"][aria-selected="true"] { background: var(--soft); box-shadow: inset 3px 0 0 var(--primary); }
.search-title { font-weight: 600; }
.search-meta { font-size: .8rem; color: var(--muted); }
.search-snippet { font-size: .875rem; color: var(--muted); }
.search-popup mark, .search-results mark { color: var(--text); background: var(--mark-bg); border-radius: 2px; }
.search-all { color: var(--primary-text); font-size: .9rem; }
.search-status { position: absolute; width: 1px; height: 1px; margin: 0; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.search input { padding: .35rem .6rem; border: 1px solid var(--line); border-radius: 6px; width: 16rem; max-width: 100%; min-width: 0; background: var(--bg); color: var(--text); font: inherit; }
.search button { padding: .35rem .8rem; border: 0; border-radius: 6px; background: var(--primary); color: #fff; font: inherit; }
.theme-toggle { border: 1px solid var(--line); background: var(--bg); color: var(--text); border-radius: 6px; width: 2.2rem; height: 2.2rem; font-size: 1.1rem; cursor: pointer; }
.menu-button, .menu-close { display: none; text-decoration: none; color: var(--text); font-size: 1.4rem; line-height: 1; }
.sections ul, .variants ul { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; list-style: none; margin: 0; padding: .5rem 1.5rem; border-bottom: 1px solid var(--line); }
.sections a, .variants a { text-decoration: none; }
[aria-current="page"] { font-weight: 700; }
.layout { display: grid; grid-template-columns: 16rem minmax(0, 1fr) 14rem; gap: 2rem; padding: 1.5rem; max-width: 90rem; margin: 0 auto; }
.sidebar ul { list-style: none; padding-left: .9rem; margin: 0; }
.sidebar > ul { padding-left: 0; }
.sidebar { min-width: 0; overflow-wrap: anywhere; }
.sidebar li { margin: .2rem 0; }
.sidebar a { text-decoration: none; color: var(--text); }
.sidebar a[aria-current="page"] { color: var(--primary-text); }
.sidebar .collapsed > a::after { content: " ›"; color: var(--muted); }
.sidebar .more > a { color: var(--muted); font-style: italic; }
main { min-width: 0; }
article { overflow-wrap: break-word; }
.description { color: var(--muted); font-size: 1.1rem; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9em; }
:not(pre) > code { background: var(--soft); padding: .1em .3em; border-radius: 4px; }
img, iframe, video { max-width: 100%; }
table { border-collapse: collapse; }
th, td { border: 1px solid var(--line); padding: .3rem .6rem; }
.table-wrap { overflow-x: auto; margin: 1rem 0; }
.align-center { text-align: center; } .align-right { text-align: right; } .align-left { text-align: left; }
blockquote { margin: 1rem 0; padding: 0 1rem; border-left: 4px solid var(--line); color: var(--muted); }
mark { background: var(--mark-bg); color: inherit; }
.mark-red { color: var(--danger); background: none; } .mark-green { color: var(--success); background: none; } .mark-orange, .mark-yellow { color: var(--warning); background: none; }
.mark-blue, .mark-purple { color: var(--info); background: none; }
.heading { position: relative; scroll-margin-top: 1rem; }
.heading .anchor { margin-left: .4rem; text-decoration: none; color: var(--muted); opacity: 0; }
.heading .anchor::before { content: "#"; }
.heading:hover .anchor, .heading .anchor:focus { opacity: 1; }
@media (hover: none) { .heading .anchor { opacity: .6; } }
.hint { display: flex; gap: .75rem; margin: 1rem 0; padding: .75rem 1rem; border-radius: 8px; border: 1px solid; }
.hint-body > :first-child { margin-top: 0; } .hint-body > :last-child { margin-bottom: 0; }
.hint-body { min-width: 0; flex: 1; }
.hint-icon::before { display: inline-block; width: 1.3rem; height: 1.3rem; border-radius: 50%; text-align: center; line-height: 1.3rem; font-size: .8rem; font-weight: 700; color: var(--bg); }
.hint-info { border-color: var(--info); background: var(--info-bg); } .hint-info .hint-icon::before { content: "i"; background: var(--info); }
.hint-success { border-color: var(--success); background: var(--success-bg); } .hint-success .hint-icon::before { content: "✓"; background: var(--success); }
.hint-warning { border-color: var(--warning); background: var(--warning-bg); } .hint-warning .hint-icon::before { content: "!"; background: var(--warning); }
.hint-danger { border-color: var(--danger); background: var(--danger-bg); } .hint-danger .hint-icon::before { content: "✕"; background: var(--danger); }
.code-block { position: relative; margin: 1rem 0; border: 1px solid var(--line); border-radius: 8px; background: var(--code-bg); min-width: 0; }
.code-header { padding: .4rem 1rem; border-bottom: 1px solid var(--line); font-size: .85rem; color: var(--muted); }
pre.code { margin: 0; padding: 1rem; overflow-x: auto; background: none; }
pre.code.wrap { white-space: pre-wrap; overflow-wrap: anywhere; }
pre.line-numbers code { counter-reset: line; }
pre.line-numbers .line::before { counter-increment: line; content: counter(line); display: inline-block; width: 2rem; margin-right: 1rem; text-align: right; color: var(--muted); user-select: none; }
.code-block .copy { position: absolute; top: .35rem; right: .4rem; padding: .15rem .5rem; font-size: .75rem; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--text); cursor: pointer; opacity: .85; }
.hljs-keyword, .hljs-selector-tag, .hljs-built_in, .hljs-type, .hljs-literal { color: var(--hl-keyword); }
.hljs-string, .hljs-regexp, .hljs-template-tag, .hljs-subst { color: var(--hl-string); }
.hljs-comment, .hljs-quote { color: var(--hl-comment); font-style: italic; }
.hljs-number, .hljs-symbol, .hljs-variable, .hljs-template-variable { color: var(--hl-number); }
.hljs-title, .hljs-section, .hljs-function .hljs-title { color: var(--hl-title); }
.hljs-attr, .hljs-attribute, .hljs-property, .hljs-params { color: var(--hl-attr); }
.hljs-name, .hljs-tag, .hljs-selector-class, .hljs-selector-id, .hljs-addition { color: var(--hl-name); }
.hljs-meta, .hljs-deletion, .hljs-bullet, .hljs-link { color: var(--hl-meta); }
.tabs { margin: 1rem 0; border: 1px solid var(--line); border-radius: 8px; min-width: 0; }
.tab-panel { padding: .25rem 1rem; min-width: 0; }
.tab-panel + .tab-panel { border-top: 1px solid var(--line); }
.tab-title { font-weight: 700; margin: .5rem 0; }
.tabs-scripted .tab-title { display: none; }
.tabs-scripted .tab-panel + .tab-panel { border-top: 0; }
[role="tablist"] { display: flex; gap: .25rem; overflow-x: auto; border-bottom: 1px solid var(--line); padding: 0 .5rem; }
[role="tab"] { border: 0; border-bottom: 2px solid transparent; background: none; color: var(--muted); padding: .5rem .75rem; font: inherit; cursor: pointer; white-space: nowrap; }
[role="tab"][aria-selected="true"] { color: var(--primary-text); border-bottom-color: var(--primary); font-weight: 600; }
details.expandable { margin: 1rem 0; border: 1px solid var(--line); border-radius: 8px; padding: .5rem 1rem; }
details.expandable summary { cursor: pointer; font-weight: 600; }
ol.stepper { list-style: none; counter-reset: step; padding-left: 0; margin: 1rem 0; }
ol.stepper > li.step { counter-increment: step; position: relative; padding-left: 2.75rem; padding-bottom: .5rem; border-left: 2px solid var(--line); margin-left: .9rem; }
ol.stepper > li.step::before { content: counter(step); position: absolute; left: -1rem; top: 0; width: 1.9rem; height: 1.9rem; border-radius: 50%; background: var(--primary); color: #fff; text-align: center; line-height: 1.9rem; font-weight: 700; }
ol.stepper > li.step:last-child { border-left-color: transparent; }
.step-body > :first-child { margin-top: 0; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 14rem), 1fr)); gap: 1rem; margin: 1rem 0; }
.card { position: relative; border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
.card:hover { border-color: var(--primary); }
.card-cover { display: block; width: 100%; aspect-ratio: 16 / 9; object-fit: cover; }
.card-body { padding: .75rem 1rem; }
.card-link { position: absolute; inset: 0; }
.columns { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 14rem), 1fr)); gap: 1.5rem; margin: 1rem 0; }
.column { min-width: 0; }
.images { display: flex; flex-wrap: wrap; gap: 1rem; margin: 1rem 0; }
.images.align-center { justify-content: center; } .images.align-right { justify-content: flex-end; }
figure.image { margin: 0; max-width: 100%; }
figure.image img { display: block; max-width: 100%; height: auto; border-radius: 6px; }
figcaption { color: var(--muted); font-size: .9rem; text-align: center; }
figcaption p { margin: .3rem 0; }
.file-card, .embed-card, .content-ref { display: flex; flex-direction: column; gap: .15rem; margin: 1rem 0; padding: .75rem 1rem; border: 1px solid var(--line); border-radius: 8px; text-decoration: none; color: var(--text); overflow-wrap: anywhere; }
.file-card:hover, .embed-card:hover, .content-ref:hover { border-color: var(--primary); }
.file-name::before { content: "⤓ "; color: var(--muted); }
.content-ref-title { font-weight: 600; color: var(--primary-text); } .content-ref-title::before { content: "📄 "; }
.embed-host, .content-ref-url, .file-caption { color: var(--muted); font-size: .85rem; }
.embed-url { font-size: .85rem; color: var(--muted); overflow-wrap: anywhere; }
figure.embed { margin: 1rem 0; }
.embed-frame { position: relative; aspect-ratio: 16 / 9; }
.embed-frame iframe { position: absolute; inset: 0; width: 100%; height: 100%; border: 0; border-radius: 8px; }
.math-block { overflow-x: auto; margin: 1rem 0; }
.katex math[display="block"] { font-size: 1.2em; }
a.button { display: inline-block; padding: .45rem 1rem; border-radius: 6px; text-decoration: none; font-weight: 600; border: 1px solid var(--primary); margin: .2rem 0; }
a.button.primary { background: var(--primary); color: #fff; }
a.button.secondary { color: var(--primary-text); }
.icon { font-style: normal; }
ul.tasks { list-style: none; padding-left: .5rem; }
.task { display: flex; gap: .5rem; align-items: baseline; }
.task > p { margin: 0; }
.task-box::before { content: "☐"; } .task.checked .task-box::before { content: "☑"; color: var(--success); }
.api-card { margin: 1rem 0; padding: .75rem 1rem; border: 1px solid var(--line); border-radius: 8px; overflow-wrap: anywhere; }
.api-method { display: inline-block; padding: .05rem .45rem; border-radius: 4px; font-size: .8rem; font-weight: 700; color: #fff; background: var(--muted); }
.api-method-get { background: #1a7f37; } .api-method-post { background: #0969da; } .api-method-put, .api-method-patch { background: #9a6700; } .api-method-delete { background: #cf222e; }
.reusable-missing { color: var(--muted); font-style: italic; }
.pagination { display: flex; justify-content: space-between; gap: 1rem; margin-top: 3rem; }
.pagination a { display: block; padding: .75rem 1rem; border: 1px solid var(--line); border-radius: 8px; text-decoration: none; min-width: 0; overflow-wrap: anywhere; }
.pagination small { display: block; color: var(--muted); }
.pagination .next { margin-left: auto; text-align: right; }
.toc { font-size: .9rem; }
.toc h2 { font-size: .8rem; text-transform: uppercase; color: var(--muted); }
.toc ul { list-style: none; padding: 0; }
.toc .toc-3 { padding-left: .8rem; }
.search-results > li { margin-bottom: 1rem; }
.layout-narrow { grid-template-columns: minmax(0, 1fr); max-width: 48rem; }
.search-page-form { display: flex; gap: .4rem; margin: 1rem 0; }
.search-page-form input { flex: 1; min-width: 0; padding: .45rem .7rem; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--text); font: inherit; }
.search-page-form button { padding: .45rem 1rem; border: 0; border-radius: 6px; background: var(--primary); color: #fff; font: inherit; }
.site-footer { border-top: 1px solid var(--line); padding: 1.5rem; display: flex; flex-wrap: wrap; gap: 2rem; color: var(--muted); }
.site-footer h2 { font-size: .9rem; }
.social-links ul { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem .5rem; list-style: none; margin: 0; padding: 0; }
.social-link { display: inline-flex; padding: .25rem; border-radius: 6px; color: var(--muted); }
.social-link:hover, .social-link:focus-visible { color: var(--primary-text); }
.social-icon { display: block; }
.site-footer .social-footer { flex-basis: 100%; }
.site-footer ul { list-style: none; padding: 0; }
body.message main { max-width: 40rem; margin: 4rem auto; padding: 0 1.5rem; }
@media (max-width: 60rem) {
  .layout { grid-template-columns: minmax(0, 1fr); padding: 1rem; gap: 1rem; }
  .toc { display: none; }
  .site-header { padding: .6rem 1rem; }
  .search { flex: 1 1 100%; order: 3; }
  .header-links { flex: 1 1 100%; order: 4; }
  .header-menu ul { position: static; box-shadow: none; }
  .search input { width: auto; flex: 1; }
  .search-popup { left: 0; right: 0; width: auto; }
  .menu-button { display: block; }
  .sidebar { display: none; }
  .sidebar:target { display: block; position: fixed; inset: 0 20% 0 0; z-index: 10; overflow-y: auto; padding: 2.5rem 1.25rem 1rem; background: var(--bg); border-right: 1px solid var(--line); box-shadow: 0 0 0 100vmax rgb(0 0 0 / .4); }
  .sidebar:target + .menu-close { display: block; position: fixed; top: .75rem; left: calc(80% - 2.5rem); z-index: 11; }
  .pagination { flex-direction: column; }
  .pagination .next { margin-left: 0; }
}
`;
