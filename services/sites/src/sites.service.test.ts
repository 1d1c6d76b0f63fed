// The sites service on a broker of its own: internal actions, secrets at rest and the events it handles.
import { ServiceBroker, type ServiceSchema } from "moleculer";
import { bindConfig, loadConfig } from "@docshelf/config";
import { hashToken, type Membership } from "@docshelf/access";
import type { SpaceAccess } from "@docshelf/contracts/content";
import type { SitesService } from "./service-types";
import { sitesSchema } from "./sites.service";

const orgsStub: ServiceSchema = {
  name: "orgs",
  actions: {
    memberRole: {
      visibility: "public",
      handler(): Membership {
        return { exists: true, member: true, role: "admin" };
      },
    },
  },
};

const contentStub: ServiceSchema = {
  name: "content",
  actions: {
    spaceAccess: {
      visibility: "public",
      handler(ctx): SpaceAccess {
        const { spaceId } = ctx.params as { spaceId: string };
        return { exists: true, organizationId: "org1", role: "admin", revision: "r1", title: `Space ${spaceId}`, visibility: "private" };
      },
    },
    getSpace: {
      handler(ctx) {
        const { spaceId } = ctx.params as { spaceId: string };
        return { object: "space", id: spaceId, title: `Space ${spaceId}` };
      },
    },
  },
};

/** Records the `sites.urls.changed` broadcasts, as content hears them. */
const urlChanges: Array<{ siteId: string }> = [];
const urlListener: ServiceSchema = {
  name: "url-listener",
  events: {
    "sites.urls.changed"(ctx) {
      urlChanges.push(ctx.params as { siteId: string });
    },
  },
};

describe("sites service", () => {
  let broker: ServiceBroker;
  let service: SitesService;
  const as = { meta: { user: { id: "u1", instanceAdmin: false } } };

  beforeAll(async () => {
    broker = new ServiceBroker({ logger: false });
    bindConfig(broker, loadConfig({ DATA_DIR: ":memory:" }));
    service = broker.createService(sitesSchema() as unknown as ServiceSchema) as unknown as SitesService;
    broker.createService(orgsStub);
    broker.createService(contentStub);
    broker.createService(urlListener);
    await broker.start();
  });
  afterAll(() => broker.stop());

  const createSite = (params: Record<string, unknown> = {}) =>
    broker.call<{ id: string; siteSpaces: number }, Record<string, unknown>>("sites.create", { organizationId: "org1", title: "Docs", ...params }, as);

  test("a share key resolves while its link is active, and only for its own site", async () => {
    const site = await createSite({ visibility: "share-link" });
    const other = await createSite();
    const link = await broker.call<{ id: string; urls: { published: string } }, Record<string, unknown>>(
      "sites.createShareLink",
      { organizationId: "org1", siteId: site.id, name: "Partners" },
      as,
    );
    const key = new URL(link.urls.published).searchParams.get("share")!;
    expect(await broker.call("sites.resolveShareKey", { siteId: site.id, shareKey: key })).toBe(true);
    expect(await broker.call("sites.resolveShareKey", { siteId: other.id, shareKey: key })).toBe(false);
    expect(await broker.call("sites.resolveShareKey", { siteId: site.id, shareKey: `${key}x` })).toBe(false);
    await broker.call("sites.updateShareLink", { organizationId: "org1", siteId: site.id, shareLinkId: link.id, active: false }, as);
    expect(await broker.call("sites.resolveShareKey", { siteId: site.id, shareKey: key })).toBe(false);
  });

  test("the store keeps only the key's hash and a short prefix", async () => {
    const site = await createSite();
    const link = await broker.call<{ id: string; urls: { published: string } }, Record<string, unknown>>(
      "sites.createShareLink",
      { organizationId: "org1", siteId: site.id, name: "Stored" },
      as,
    );
    const key = new URL(link.urls.published).searchParams.get("share")!;
    const stored = await service.shareLinks.findOne({ id: link.id });
    expect(stored).toMatchObject({ keyHash: hashToken(key), keyPrefix: key.slice(0, 6) });
    expect(JSON.stringify(stored)).not.toContain(key);
  });

  test("each site has its own visitor signing key, never in the site's answer, gone with the site", async () => {
    const a = await createSite();
    const b = await createSite();
    const keyA = await broker.call<{ key: string } | null, { siteId: string }>("sites.visitorSigningKey", { siteId: a.id });
    const keyB = await broker.call<{ key: string } | null, { siteId: string }>("sites.visitorSigningKey", { siteId: b.id });
    expect(keyA!.key.length).toBeGreaterThanOrEqual(43);
    expect(keyA!.key).not.toBe(keyB!.key);
    const answer = await broker.call("sites.get", { organizationId: "org1", siteId: a.id }, as);
    expect(JSON.stringify(answer)).not.toContain(keyA!.key);
    await broker.call("sites.remove", { organizationId: "org1", siteId: a.id }, as);
    expect(await broker.call("sites.visitorSigningKey", { siteId: a.id })).toBeNull();
  });

  test("actions that can move a published URL announce it with the site's id; reads do not", async () => {
    urlChanges.length = 0;
    const site = await createSite();
    await waitFor(async () => urlChanges.length === 1);
    expect(urlChanges).toEqual([{ siteId: site.id }]);
    await broker.call("sites.get", { organizationId: "org1", siteId: site.id }, as);
    await broker.call("sites.publish", { organizationId: "org1", siteId: site.id }, as);
    await broker.call("sites.addSection", { organizationId: "org1", siteId: site.id, spaceId: "spaceS", title: "Guides" }, as);
    await waitFor(async () => urlChanges.length === 3);
    expect(urlChanges).toEqual([{ siteId: site.id }, { siteId: site.id }, { siteId: site.id }]);
  });

  test("a purged space is unlinked from its sites and the count follows", async () => {
    const site = await createSite({ spaces: ["spaceP", "spaceQ"] });
    expect(site.siteSpaces).toBe(2);
    await broker.broadcast("content.space.purged", { spaceId: "spaceP", organizationId: "org1" });
    await waitFor(async () => (await service.siteSpaces.count({ siteId: site.id })) === 1);
    const read = await broker.call<{ siteSpaces: number }, Record<string, unknown>>("sites.get", { organizationId: "org1", siteId: site.id }, as);
    expect(read.siteSpaces).toBe(1);
  });

  test("a space transferred away is unlinked from the sites of the organization it left", async () => {
    const site = await createSite({ spaces: ["spaceT"] });
    await broker.broadcast("content.space.transferred", { spaceId: "spaceT", fromOrganizationId: "org1", toOrganizationId: "org2" });
    await waitFor(async () => (await service.siteSpaces.count({ siteId: site.id })) === 0);
    expect(await service.siteSpaces.count({ spaceId: "spaceT" })).toBe(0);
  });
});

/** Polls a condition with a deadline: events are handled after broadcast returns. */
async function waitFor(check: () => Promise<boolean>, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setImmediate(resolve));
  }
}
