// Published-site pages are counted per client address (SITE_RATE_LIMIT_PER_MINUTE), apart from the API's
// limits, in every process mode: past the limit a 429 page with Retry-After, the API still answering.
import { awayFromWindowEdge, type RunningSystem } from "@docshelf/testkit";
import { MODES, type Mode, startPrivate } from "./modes";
import { sitesWorld, type SitesWorld } from "./sites-fixtures";
import { header, publishedSite, rawGet, type PublishedSite } from "./sites-serve-fixtures";

const PAGE_LIMIT = 5;

function startWith(mode: Mode, env: Record<string, string>): Promise<RunningSystem> {
  return startPrivate(mode, env);
}

describe.each(MODES)("published-site rate limit over %s", (mode) => {
  let sys: RunningSystem;
  let w: SitesWorld;
  let docs: PublishedSite;
  beforeAll(async () => {
    sys = await startWith(mode, { SITE_RATE_LIMIT_PER_MINUTE: String(PAGE_LIMIT) });
    w = await sitesWorld(sys);
    docs = await publishedSite(sys, w);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  test("a reader past the limit gets the 429 page with Retry-After; the search box's JSON counts too; a forged X-Forwarded-For does not reset it; the API still answers", async () => {
    await awayFromWindowEdge();
    const statuses: number[] = [];
    // Pages and the search box's ~search.json share one count.
    for (let i = 0; i < PAGE_LIMIT; i++) statuses.push((await rawGet(sys.url, i % 2 ? `${docs.base}/~search.json?q=guide` : docs.base)).status);
    expect(statuses).toEqual(Array(PAGE_LIMIT).fill(200));
    const refused = await rawGet(sys.url, `${docs.base}/guide`);
    expect(refused.status).toBe(429);
    expect(header(refused, "content-type")).toBe("text/html; charset=utf-8");
    expect(Number(header(refused, "retry-after"))).toBeGreaterThanOrEqual(1);
    expect(header(refused, "content-security-policy")).toBe("default-src 'none'");
    expect(refused.text).toContain("Too many requests");
    expect((await rawGet(sys.url, `${docs.base}/~search.json?q=guide`)).status).toBe(429);
    // No proxy is trusted here: the forwarded address is not believed.
    expect((await rawGet(sys.url, docs.base, { "x-forwarded-for": "203.0.113.9" })).status).toBe(429);
    // Pages and the API are counted apart: the site's owner keeps working.
    expect((await w.owner.api.get("/v1/user")).status).toBe(200);
  });
});
