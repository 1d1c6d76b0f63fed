// The AI endpoints' rate limits, in every process mode: a site's .md, llms.txt and MCP POSTs draw on the
// same per-address count as its pages (SITE_RATE_LIMIT_PER_MINUTE); the API's MCP server counts its own
// requests per user, and its tools' API calls per user like any API request (RATE_LIMIT_PER_MINUTE).
import { awayFromWindowEdge, type RunningSystem } from "@docshelf/testkit";
import { MODES, type Mode, startPrivate } from "./modes";
import { sitesWorld, type SitesWorld } from "./sites-fixtures";
import { header, publishedSite, rawGet, type PublishedSite } from "./sites-serve-fixtures";
import { INITIALIZE, rawPost } from "./ai-fixtures";

const PAGE_LIMIT = 6;
const API_LIMIT = 40;

function startWith(mode: Mode, env: Record<string, string>): Promise<RunningSystem> {
  return startPrivate(mode, env);
}

describe.each(MODES)("AI endpoints' rate limits over %s", (mode) => {
  let sys: RunningSystem;
  let w: SitesWorld;
  let docs: PublishedSite;
  beforeAll(async () => {
    sys = await startWith(mode, { SITE_RATE_LIMIT_PER_MINUTE: String(PAGE_LIMIT), RATE_LIMIT_PER_MINUTE: String(API_LIMIT) });
    w = await sitesWorld(sys);
    docs = await publishedSite(sys, w);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  test("a site's page, .md, llms.txt and MCP requests share one count per address", async () => {
    await awayFromWindowEdge();
    const statuses = [
      (await rawGet(sys.url, docs.base)).status,
      (await rawGet(sys.url, `${docs.base}/guide.md`)).status,
      (await rawGet(sys.url, `${docs.base}/llms.txt`)).status,
      (await rawGet(sys.url, `${docs.base}/llms-full.txt`)).status,
      (await rawPost(sys.url, `${docs.base}/~gitbook/mcp`, INITIALIZE)).status,
      (await rawGet(sys.url, `${docs.base}/guide`, { accept: "text/markdown" })).status,
    ];
    expect(statuses).toEqual(Array(PAGE_LIMIT).fill(200));
    for (const refused of [await rawGet(sys.url, `${docs.base}/guide.md`), await rawPost(sys.url, `${docs.base}/~gitbook/mcp`, INITIALIZE), await rawGet(sys.url, `${docs.base}/llms.txt`)]) {
      expect(refused.status).toBe(429);
      expect(Number(header(refused, "retry-after"))).toBeGreaterThanOrEqual(1);
    }
  });

  test("the API's MCP server: its own requests per user, apart from the API's count", async () => {
    await awayFromWindowEdge();
    const auth = { authorization: `Bearer ${w.reader.token}` };
    const statuses: number[] = [];
    for (let i = 0; i < PAGE_LIMIT + 1; i++) statuses.push((await rawPost(sys.url, "/mcp", INITIALIZE, auth)).status);
    expect(statuses).toEqual([...Array(PAGE_LIMIT).fill(200), 429]);
    // Another user has a count of their own, and the reader's API budget is untouched.
    expect((await rawPost(sys.url, "/mcp", INITIALIZE, { authorization: `Bearer ${w.editor.token}` })).status).toBe(200);
    expect((await w.reader.api.get(`/v1/orgs/${w.orgId}`)).status).toBe(200);
  });
});
