// `sites.serve`: one GET of a published site, by `/sites/{basename}/…` or by the site's own hostname,
// answered as {status, headers, body} for the gateway to write.
import { SERVE_HEAD_META, type ServeParams } from "@docshelf/contracts/sites";
import type { Readable } from "node:stream";
import { call } from "@docshelf/contracts/action";
import * as identity from "@docshelf/contracts/identity";
import { configFor } from "@docshelf/config";
import { socialAccountUrl, SOCIAL_PLATFORMS, type Customization, type SocialAccount } from "../customization";
import type { SiteDoc } from "../models";
import { matchRedirect, redirectStatus } from "../redirects";
import { redirectTarget } from "../redirects.actions";
import { gitRedirectsOf } from "../git-redirects";
import type { Ctx, SitesActions, SitesService } from "../service-types";
import { instanceSiteUrl, sitePathName } from "../structure";
import { decideAccess, parseCookies, type AccessDecision } from "./access";
import type { PublishedHead } from "./content";
import { pageUrl } from "./content";
import { siteScript, IMMUTABLE } from "./assets";
import { answer, type ServeAnswer } from "./headers";
import { leavingHtml, messageHtml, notFoundPageHtml, pageHtml, searchHtml, stylesheet, type Chrome, type SearchResultView } from "./layout";
import { MAX_SEARCH_RESULTS, rankSiteSearch, SEARCH_PAGE_RESULTS } from "./search";
import { highlight, queryTerms, searchItem, searchJsonParams, type SearchJsonAnswer } from "./search-json";
import { buildSiteMap, navigationTree, routeOf, sectionLinks, variantLinks, type SiteMap } from "./site-map";
import { robotsTxt, SITEMAP_PAGE_URLS, sitemapIndexXml, sitemapXml, type SitemapEntry } from "./sitemap";
import { serveAi, withAiLinks } from "../ai/serve-ai";
import { pathSegments } from "./path-segments";
import { conditionHolds, type Claims } from "./conditions";
import { editOnGitLink, emojiFaviconSvg, faviconEmoji, lastUpdated, themedImage } from "./page-meta";
import { chromeLinkResolver, chromeRefs } from "./chrome-links";
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import * as openapi from "@docshelf/contracts/openapi";
import { API_CONSOLE, consoleAssetFile, consoleAssets, consoleHeaders, consoleHref, consoleHtml, consoleRequest, hasOperation, pageLinksConsole, serverOrigins, withSpecLocation } from "./api-console";

/** Site ids: 20 base62 characters (packages/store/src/ids.ts). */
const ID_SHAPE = /^[0-9A-Za-z]{20}$/;

export type { ServeParams };

const HTML = "text/html; charset=utf-8";
/** Reserved names under a site's base (GitBook reserves `~gitbook/`): no page path starts with "~". */
const SEARCH = "~search";
/** The search as JSON, for the pages' search-as-you-type box. */
const SEARCH_JSON = "~search.json";
const STYLESHEET = "~style.css";
/** The site's emoji favicon, drawn as SVG. */
const FAVICON = "~favicon.svg";

interface Served {
  site: SiteDoc;
  /** URL path of the site's root as the visitor sees it: "" on its own host. */
  base: string;
  /** Absolute URL of the site's root, for canonical links and the sitemap. */
  origin: string;
  hostMode: boolean;
  /** The instance's PUBLIC_URL: its files are images the pages may show. */
  publicUrl: string;
  /** The visitor's claims once access is decided (header links' conditions). */
  claims?: Claims;
}

function stringQuery(query: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(query ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === "string") out[name] = first;
  }
  return out;
}

function colorOf(customization: Customization): string {
  const primary = customization.styling.primaryColor as { light?: unknown } | undefined;
  return typeof primary?.light === "string" ? primary.light : "#346DDB";
}

type HrefOf = (to: unknown) => string | undefined;

/** The page's chrome, its links' page and space targets resolved first (`chrome-links.ts`). */
async function chromeFor(service: SitesService, served: Served, customization: Customization, map: SiteMap | undefined, route: ReturnType<typeof routeOf> | undefined): Promise<Chrome> {
  const hrefOf = await chromeLinkResolver(chromeRefs(customization), map, route?.siteSpace, (view) => service.publishedContent.tree(view.spaceId, view.revisionId));
  return chromeOf(served, customization, map, route, hrefOf);
}

function chromeOf(served: Served, customization: Customization, map: SiteMap | undefined, route: ReturnType<typeof routeOf> | undefined, hrefOf: HrefOf): Chrome {
  const { site, base } = served;
  const styleVersion = colorOf(customization).replace("#", "");
  const chrome: Chrome = {
    siteTitle: customization.title ?? site.title,
    homeHref: base || "/",
    base,
    locale: chromeLocale(customization),
    stylesheetHref: `${base}/${STYLESHEET}?v=${styleVersion}`,
    theme: themeOf(customization),
    footer: { groups: [] },
    sections: map && route ? sectionLinks(map, route.section) : [],
    variants: map && route ? variantLinks(map, route) : [],
    indexable: site.visibility === "public",
  };
  const script = siteScript();
  if (script) chrome.scriptHref = `${base}/${script.name}`;
  const logo = themedImage(customization.header.logo, served.publicUrl);
  if (logo) chrome.logo = logo;
  const footerLogo = themedImage(customization.footer.logo, served.publicUrl);
  if (footerLogo) chrome.footerLogo = footerLogo;
  const icon = themedImage(customization.favicon?.icon, served.publicUrl);
  const emoji = faviconEmoji(customization.favicon?.emoji);
  if (icon) chrome.favicon = icon;
  else if (emoji) chrome.favicon = { svg: `${base}/${FAVICON}?v=${createHash("sha256").update(emoji).digest("hex").slice(0, 12)}` };
  const announcement = customization.announcement;
  if (announcement?.enabled && announcement.message) {
    chrome.announcement = { message: announcement.message, style: announcement.style || "info" };
    const href = hrefOf(announcement.link?.to);
    if (announcement.link && href) chrome.announcement.link = { title: announcement.link.title, href };
  }
  for (const group of customization.footer.groups as Array<{ title?: unknown; links?: unknown }>) {
    const links = (Array.isArray(group.links) ? group.links : []).flatMap((link: { title?: unknown; to?: unknown }) => {
      const href = hrefOf(link.to);
      return href && typeof link.title === "string" ? [{ title: link.title, href }] : [];
    });
    if (typeof group.title === "string") chrome.footer.groups.push({ title: group.title, links });
  }
  if (customization.footer.copyright) chrome.footer.copyright = customization.footer.copyright;
  chrome.headerLinks = headerLinksOf(customization, served.claims ?? {}, hrefOf);
  const social = socialOf(customization);
  if (social) chrome.social = social;
  return chrome;
}

const PLATFORM_NAMES: Record<SocialAccount["platform"], string> = {
  twitter: "X (Twitter)", instagram: "Instagram", facebook: "Facebook", linkedin: "LinkedIn", github: "GitHub", discord: "Discord", slack: "Slack",
  youtube: "YouTube", tiktok: "TikTok", reddit: "Reddit", bluesky: "Bluesky", mastodon: "Mastodon", threads: "Threads", medium: "Medium",
};

/** The customization's social accounts as links for the header and the footer (as each account's `display` asks). */
function socialOf(customization: Customization): Chrome["social"] | undefined {
  const accounts = Array.isArray(customization.socialAccounts) ? customization.socialAccounts : [];
  const social: NonNullable<Chrome["social"]> = { header: [], footer: [], newTab: customization.externalLinks?.target === "blank" };
  for (const account of accounts) {
    // Stored accounts were checked on PUT; anything else is skipped, never drawn.
    if (!account || !(SOCIAL_PLATFORMS as readonly string[]).includes(account.platform) || typeof account.handle !== "string") continue;
    const link = { platform: account.platform, label: `${PLATFORM_NAMES[account.platform]}: ${account.handle}`, href: socialAccountUrl(account) };
    if (account.display?.header) social.header.push(link);
    if (account.display?.footer !== false) social.footer.push(link);
  }
  return social.header.length || social.footer.length ? social : undefined;
}

/**
 * GitBook's header items (`header.links`): a link, or a menu of links, with a style; an item whose `condition`
 * does not hold for the visitor (or does not parse) is left out, as are links whose target `hrefOf` does not
 * resolve (a web URL, or a page or space the visitor's site shows).
 */
function headerLinksOf(customization: Customization, claims: Claims, hrefOf: HrefOf): NonNullable<Chrome["headerLinks"]> {
  const items = Array.isArray(customization.header.links) ? (customization.header.links as Array<Record<string, unknown>>) : [];
  return items.flatMap((item) => {
    if (!item || typeof item.title !== "string" || !item.title) return [];
    if (typeof item.condition === "string" && item.condition && !conditionHolds(item.condition, claims)) return [];
    const links = (Array.isArray(item.links) ? (item.links as Array<{ title?: unknown; to?: unknown }>) : []).flatMap((link) => {
      const href = hrefOf(link?.to);
      return href && typeof link.title === "string" && link.title ? [{ title: link.title, href }] : [];
    });
    const href = hrefOf(item.to);
    if (!href && !links.length) return [];
    const style = item.style === "button-primary" || item.style === "button-secondary" ? item.style : "link";
    return [{ title: item.title, ...(href ? { href } : {}), style, links }];
  });
}

function chromeLocale(customization: Customization): string {
  return /^[a-z]{2}(-[A-Za-z]{2})?$/.test(customization.internationalization.locale) ? customization.internationalization.locale : "en";
}

/** Readers may switch themes when `themes.toggeable` (then the system's theme until they do); else `themes.default` holds. */
function themeOf(customization: Customization): Chrome["theme"] {
  const themes = customization.themes as { default?: unknown; toggeable?: unknown } | undefined;
  if (themes?.toggeable !== false) return { toggle: true };
  return { toggle: false, fixed: themes.default === "dark" ? "dark" : "light" };
}

export const serveActions: SitesActions = {
  /**
   * Internal (the gateway's front page at `/`): published public sites, which anyone may read anyway,
   * by title; never unlisted, share-link or visitor-auth ones.
   */
  publicSites: {
    visibility: "public",
    params: { limit: { type: "number", integer: true, min: 1, max: 100, optional: true } },
    async handler(this: SitesService, ctx: Ctx<{ limit?: number }>): Promise<Array<{ title: string; url: string }>> {
      const { publicUrl } = configFor(this.broker);
      const sites = await this.sites.find({ visibility: "public", published: true }, { sort: [["title", 1]], limit: ctx.params.limit ?? 50 });
      return sites.map((site) => ({ title: site.title, url: instanceSiteUrl(site, publicUrl) }));
    },
  },

  /** Internal (the gateway): one GET of a published site; null when `host` names no site and the path is not under /sites/. */
  serve: {
    visibility: "public",
    params: {
      host: { type: "string", max: 512, optional: true },
      path: { type: "string", max: 8192 },
      query: { type: "object", optional: true },
      cookie: { type: "string", max: 16384, optional: true },
      ifNoneMatch: { type: "string", max: 1024, optional: true },
      markdown: { type: "boolean", optional: true },
      mcp: { type: "object", optional: true, props: { body: { type: "string", max: 1_048_576 }, contentType: { type: "string", max: 256, optional: true }, accept: { type: "string", max: 1024, optional: true }, protocolVersion: { type: "string", max: 64, optional: true } } },
    },
    async handler(this: SitesService, ctx: Ctx<ServeParams>): Promise<ServeAnswer | Readable | null> {
      const { publicUrl } = configFor(this.broker);
      const publicPath = new URL(publicUrl).pathname.replace(/\/+$/, "");
      const query = stringQuery(ctx.params.query);
      const notFound = (visibility?: SiteDoc["visibility"], stylesheetHref?: string, setCookies: string[] = []) =>
        answer({
          status: 404,
          contentType: HTML,
          body: messageHtml("Page not found", "There is no page at this address.", stylesheetHref),
          visibility,
          personal: false,
          setCookies,
        });

      const host = ctx.params.host?.toLowerCase().replace(/:\d+$/, "");
      const byHost = host ? await this.sites.findOne({ hostname: host }) : null;
      const underSites = ctx.params.path === "/sites" || ctx.params.path.startsWith("/sites/");
      // Neither a site's own hostname nor /sites/: the caller serves the API instead.
      if (!byHost && !underSites) return null;
      const segments = pathSegments(ctx.params.path);
      if (!segments) return notFound();

      let served: Served;
      let rest: string[];
      if (byHost) {
        if (!byHost.published) return notFound();
        served = { site: byHost, base: "", origin: `https://${byHost.hostname}`, hostMode: true, publicUrl };
        rest = segments;
      } else {
        const name = segments[1];
        if (!name) return notFound();
        // Ids first: a site's `/sites/{id}` URL stays its own whatever basename another site takes. Only a
        // name of an id's shape (20 base62 characters, which no basename has) can be an id.
        const byId = ID_SHAPE.test(name) ? await this.sites.findOne({ id: name }) : null;
        const site = byId ?? (await this.sites.findOne({ basename: name }));
        if (!site || !site.published) return notFound();
        if (site.basename !== undefined && site.basename !== name) {
          // Known by its id but named by its basename now: the basename's URL is the one to keep.
          const search = new URLSearchParams(query).toString();
          const location = `${publicPath}/sites/${sitePathName(site)}${segments.length > 2 ? `/${segments.slice(2).map(encodeURIComponent).join("/")}` : ""}${search ? `?${search}` : ""}`;
          return { status: 301, headers: { Location: location, "Cache-Control": "no-store" }, body: "" };
        }
        const base = `${publicPath}/sites/${sitePathName(site)}`;
        served = { site, base, origin: `${new URL(publicUrl).origin}${base}`, hostMode: false, publicUrl };
        rest = segments.slice(2);
      }
      const { site, base } = served;
      const { customization } = await this.siteCustomization(site);
      const stylesheetHref = `${base}/${STYLESHEET}?v=${colorOf(customization).replace("#", "")}`;
      const plain = (contentType: string, body: string, personal = false) =>
        answer({ status: 200, contentType, body, visibility: site.visibility, personal, ifNoneMatch: ctx.params.ifNoneMatch });

      // Open to anyone who knows the site: its stylesheet and its robots rules.
      if (rest.length === 1 && rest[0] === STYLESHEET) return plain("text/css; charset=utf-8", stylesheet(colorOf(customization)));
      const script = siteScript();
      if (script && rest.length === 1 && rest[0] === script.name) {
        const served = plain("text/javascript; charset=utf-8", script.body);
        return { ...served, headers: { ...served.headers, "Cache-Control": IMMUTABLE } };
      }
      const consoleFile = rest.length === 1 ? consoleAssetFile(rest[0]) : undefined;
      if (consoleFile) {
        const head = plain(consoleFile.contentType, "");
        delete head.headers.ETag;
        (ctx.meta as Record<string, unknown>)[SERVE_HEAD_META] = { status: 200, headers: { ...head.headers, "Cache-Control": IMMUTABLE } };
        return createReadStream(consoleFile.file, { highWaterMark: 256 * 1024 });
      }
      if (rest.length === 1 && rest[0] === FAVICON) {
        const emoji = faviconEmoji(customization.favicon?.emoji);
        if (emoji) return plain("image/svg+xml", emojiFaviconSvg(emoji));
      }
      if (rest.length === 1 && rest[0] === "robots.txt") return plain("text/plain; charset=utf-8", robotsTxt(site.visibility, `${served.origin}/sitemap.xml`));

      const access: AccessDecision = await decideAccess(
        site,
        { query, cookies: parseCookies(ctx.params.cookie) },
        {
          shareKeyResolves: (siteId, key) => this.shareKeyResolves(siteId, key),
          signingKey: async (siteId) => (await this.siteKeys.findOne({ id: siteId }))?.visitorSigningKey ?? null,
        },
        { path: base || "/", secure: publicUrl.startsWith("https:") },
      );
      if (!access.allowed) {
        if (access.status === 404) return notFound(site.visibility, stylesheetHref, access.setCookies);
        return answer({
          status: 401,
          contentType: HTML,
          body: messageHtml("Sign in to read this site", "This site is only open to authenticated visitors. Open it from the link you were given to sign in.", stylesheetHref),
          visibility: site.visibility,
          personal: true,
          setCookies: access.setCookies,
        });
      }
      served.claims = access.claims;
      const respond = (status: number, contentType: string, body: string, noindex = false) =>
        withAiLinks(answer({ status, contentType, body, visibility: site.visibility, personal: access.personal, noindex, setCookies: access.setCookies, ifNoneMatch: ctx.params.ifNoneMatch }), base);

      const [sections, groups, siteSpaces] = await Promise.all([
        this.sections.find({ siteId: site.id }),
        this.groups.find({ siteId: site.id }),
        this.siteSpaces.find({ siteId: site.id }),
      ]);
      const heads = new Map<string, PublishedHead>(
        (await this.publishedContent.heads([...new Set(siteSpaces.map((s) => s.spaceId))])).map((h) => [h.spaceId, h]),
      );
      const map = buildSiteMap({ site, sections, groups, siteSpaces }, heads, access.claims, base);
      const ai = await serveAi(this, { site, base, origin: served.origin, rest, query, map, params: ctx.params, respond });
      if (ai && "stream" in ai) {
        (ctx.meta as Record<string, unknown>)[SERVE_HEAD_META] = ai.head;
        return ai.stream;
      }
      if (ai) return ai;

      const sitemapFile = rest.length === 1 ? /^sitemap(?:-([1-9]\d{0,4}))?\.xml$/.exec(rest[0]) : null;
      if (sitemapFile) {
        if (site.visibility !== "public") return notFound(site.visibility, stylesheetHref);
        const entries: SitemapEntry[] = [];
        for (const view of map.all) {
          const tree = await this.publishedContent.tree(view.spaceId, view.revisionId);
          for (const page of tree.order) {
            if (page.noIndex || page.noRobotsIndex) continue;
            entries.push({ url: absolute(served, pageUrl(view.base, tree, page)), lastModified: page.updatedAt });
          }
        }
        const xml = "application/xml; charset=utf-8";
        const part = sitemapFile[1] ? Number(sitemapFile[1]) : 0;
        if (!part) return respond(200, xml, entries.length > SITEMAP_PAGE_URLS ? sitemapIndexXml(served.origin, entries.length) : sitemapXml(entries));
        const slice = entries.slice((part - 1) * SITEMAP_PAGE_URLS, part * SITEMAP_PAGE_URLS);
        if (!slice.length || entries.length <= SITEMAP_PAGE_URLS) return notFound(site.visibility, stylesheetHref);
        return respond(200, xml, sitemapXml(slice));
      }

      if (rest.length === 1 && rest[0] === SEARCH) {
        const q = (query.q ?? "").trim().slice(0, 512);
        const route = routeOf(map, []);
        const chrome = await chromeFor(this, served, customization, map, route);
        const results = q ? await searchResults(this, map, q) : [];
        return respond(200, HTML, searchHtml(chrome, q, results), true);
      }

      if (rest.length === 1 && rest[0] === SEARCH_JSON) {
        const checked = searchJsonParams(query);
        const json = "application/json; charset=utf-8";
        if (!checked.ok) {
          const body = JSON.stringify({ error: { code: 400, message: checked.message, field: checked.field } });
          return withAiLinks(answer({ status: 400, contentType: json, body, visibility: site.visibility, personal: access.personal, noindex: true, setCookies: access.setCookies }), base);
        }
        return respond(200, json, JSON.stringify(await searchJson(this, map, checked.q, checked.limit)), true);
      }

      // A path that shows no page follows the site's live redirect for it (GitBook's site redirects), if any.
      const redirected = async (): Promise<ServeAnswer | null> => {
        // The site's own first (one wins over a Git redirect of the same source), then its spaces' `.gitbook.yaml` ones.
        const redirects = [...(await this.redirects.find({ siteId: site.id, draft: false }, { limit: 10_000 })), ...(await gitRedirectsOf(this.broker, site, map.all, base, (spaceId, revisionId) => this.publishedContent.pageIds(spaceId, revisionId), this.logger))];
        const match = redirects.length ? matchRedirect(redirects, `/${rest.join("/")}`) : null;
        const target = match ? await redirectTarget(this, map, match.redirect, match.suffix) : null;
        if (!match || target === null) return null;
        const search = new URLSearchParams(query).toString();
        const location = search && !target.includes("?") && !/^https?:/.test(target) ? `${target}?${search}` : target;
        // Another website, from a site on the instance's own host: unless the organization verified a domain
        // (it is known to control one), a page says where the link goes instead of redirecting there.
        if (!served.hostMode && /^https?:/i.test(location) && new URL(location).host !== new URL(publicUrl).host) {
          const trusted = await call(this.broker, identity.hasVerifiedDomain, { organizationId: site.organizationId }).catch(() => false);
          if (!trusted) return respond(200, HTML, leavingHtml(site.title || "this site", location, stylesheetHref), true);
        }
        return { status: redirectStatus(match.redirect, site.visibility === "public"), headers: { Location: location || "/", "Cache-Control": "no-store" }, body: "" };
      };

      const route = routeOf(map, rest);
      // A reader of the site who asks for no page gets the site's own 404, with its search.
      const missing = async () => respond(404, HTML, notFoundPageHtml(await chromeFor(this, served, customization, map, routeOf(map, []))), true);
      // The "Test it" console of an API block of a page (its own page and CSP; api-console.ts): only for an operation
      // a block of that page names, as the visitor may read the page.
      if (rest.length && rest[rest.length - 1] === API_CONSOLE) {
        const built = consoleAssets();
        const checked = consoleRequest(query);
        const pageRoute = routeOf(map, rest.slice(0, -1));
        if (!built || "field" in checked || !pageRoute) return missing();
        const pageTree = await this.publishedContent.tree(pageRoute.siteSpace.spaceId, pageRoute.siteSpace.revisionId);
        const holder = pageRoute.pagePath ? pageTree.byPath.get(pageRoute.pagePath) : pageTree.first;
        if (!holder) return missing();
        const holderHref = pageUrl(pageRoute.siteSpace.base, pageTree, holder);
        const rendered = await this.publishedContent.body(pageRoute.siteSpace.spaceId, pageTree, holder, pageRoute.siteSpace.base, site.organizationId);
        if (!pageLinksConsole(rendered.html, consoleHref(holderHref, checked))) return missing();
        const spec = await call(this.broker, openapi.getSpecContent, { organizationId: site.organizationId, slug: checked.spec }).catch((err: unknown) => {
          this.logger.warn({ siteId: site.id, error: String((err as Error)?.message) }, "the console's spec could not be read");
          return null;
        });
        if (!spec || !hasOperation(spec.document, checked.method, checked.path)) return missing();
        // A spec registered by URL: its relative servers are where it came from.
        const document = withSpecLocation(spec.document, spec.sourceURL);
        const html = consoleHtml({ siteTitle: customization.title ?? site.title, base, backHref: holderHref, request: checked, document, assets: built });
        const consolePage = respond(200, HTML, html, true);
        return { ...consolePage, headers: { ...consolePage.headers, ...consoleHeaders(serverOrigins(document, checked.method, checked.path)) } };
      }
      if (!route) return (await redirected()) ?? missing();
      const tree = await this.publishedContent.tree(route.siteSpace.spaceId, route.siteSpace.revisionId);
      const page = route.pagePath ? tree.byPath.get(route.pagePath) : tree.first;
      if (!page && !route.pagePath) {
        // A site space without pages yet: its root still answers, with an empty page.
        const chrome = await chromeFor(this, served, customization, map, route);
        const empty = pageHtml(chrome, { title: route.siteSpace.title, bodyHtml: "<p>There are no pages here yet.</p>", toc: [], tree: [] });
        return respond(200, HTML, empty);
      }
      if (!page) return (await redirected()) ?? missing();
      const rendered = await this.publishedContent.body(route.siteSpace.spaceId, tree, page, route.siteSpace.base, site.organizationId);
      const { previous, next } = tree.neighbours(page);
      const link = (p: typeof page | undefined) => (p ? { title: p.title || "Untitled", href: pageUrl(route.siteSpace.base, tree, p) } : undefined);
      const noindex = !!(page.noIndex || page.noRobotsIndex);
      const html = pageHtml(await chromeFor(this, served, customization, map, route), {
        title: page.title || "Untitled",
        description: page.description,
        canonical: absolute(served, pageUrl(route.siteSpace.base, tree, page)),
        bodyHtml: rendered.html,
        toc: rendered.toc,
        tree: navigationTree(tree, route.siteSpace.base, page),
        previous: link(previous),
        next: link(next),
        noindex,
        lastUpdated: lastUpdated(page.updatedAt, chromeLocale(customization)),
        editLink: customization.git?.showEditLink ? editOnGitLink(route.siteSpace.git, tree.gitRef, page.gitPath) : undefined,
      });
      return respond(200, HTML, html, noindex);
    },
  },
};

/** A URL path of the site as an absolute URL. */
function absolute(served: Served, href: string): string {
  const rest = href.slice(served.base.length);
  return `${served.origin}${rest || (served.hostMode ? "/" : "")}`;
}

/** The search box's answer: the search page's order, `limit` pages, matched words flagged. */
async function searchJson(service: SitesService, map: SiteMap, q: string, limit: number): Promise<SearchJsonAnswer> {
  const terms = queryTerms(q);
  const several = map.all.length > 1;
  const label = (view: SiteMap["all"][number]): string | undefined => {
    if (!several) return undefined;
    const section = map.sections.find((s) => s.siteSpaces.includes(view));
    if (!section) return view.title;
    return section.siteSpaces.length > 1 ? `${section.title} › ${view.title}` : section.title;
  };
  // Hidden pages and older revisions' are dropped after the index answers: ask for a few more than shown.
  const ranked = (await rankSiteSearch(service.publishedContent, map.all, q, Math.min(MAX_SEARCH_RESULTS, limit + 10))).slice(0, limit);
  return {
    query: q,
    items: ranked.map(({ view, tree, page, hit }) => searchItem({ title: hit.title, href: pageUrl(view.base, tree, page), space: label(view), sections: hit.sections }, terms)),
  };
}

async function searchResults(service: SitesService, map: SiteMap, q: string): Promise<SearchResultView[]> {
  const terms = queryTerms(q);
  return (await rankSiteSearch(service.publishedContent, map.all, q, SEARCH_PAGE_RESULTS)).map(({ view, tree, page, hit }) => {
    const href = pageUrl(view.base, tree, page);
    return {
      title: hit.title || "Untitled",
      href,
      sections: hit.sections
        .filter((s) => s.path.includes("#"))
        .map((s) => ({ title: s.title, href: `${href}#${s.path.split("#")[1]}`, excerpt: highlight(s.body, terms) })),
    };
  });
}
