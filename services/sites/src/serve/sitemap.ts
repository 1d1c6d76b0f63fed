// robots.txt and sitemap.xml of a published site: only a public site is open to crawlers.
import type { SiteVisibility } from "../models";

export function robotsTxt(visibility: SiteVisibility, sitemapUrl: string): string {
  if (visibility !== "public") return "User-agent: *\nDisallow: /\n";
  return `User-agent: *\nAllow: /\n\nSitemap: ${sitemapUrl}\n`;
}

const xmlEscape = (text: string) => text.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[ch]!);

export interface SitemapEntry {
  url: string;
  lastModified?: string;
}

/**
 * URLs in one sitemap file. The protocol allows 50,000, but one answer travels between the sites service
 * and the gateway as one transporter message (NATS: 1 MB by default), so a bigger site gets a sitemap
 * index (`sitemap.xml`) of numbered sitemaps (`sitemap-1.xml`, …) of this many URLs each.
 */
export const SITEMAP_PAGE_URLS = 2000;

/** The sitemap index: one `sitemap-{n}.xml` per SITEMAP_PAGE_URLS URLs. */
export function sitemapIndexXml(origin: string, count: number): string {
  const files = Math.ceil(count / SITEMAP_PAGE_URLS);
  const items = Array.from({ length: files }, (_, i) => `<sitemap><loc>${xmlEscape(`${origin}/sitemap-${i + 1}.xml`)}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join("\n")}\n</sitemapindex>\n`;
}

export function sitemapXml(entries: SitemapEntry[]): string {
  const urls = entries.map((entry) => {
    const lastmod = entry.lastModified ? `<lastmod>${xmlEscape(entry.lastModified.slice(0, 10))}</lastmod>` : "";
    return `<url><loc>${xmlEscape(entry.url)}</loc>${lastmod}</url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
}
