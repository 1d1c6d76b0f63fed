// The openapi service on a broker of its own: restart sweeps, the internal action and its events.
import { ServiceBroker, type Context, type ServiceSchema } from "moleculer";
import { bindConfig, loadConfig } from "@docshelf/config";
import type { Membership } from "@docshelf/access";
import { specFixture } from "./__tests__/fixtures";
import type { SpecDoc } from "./models";
import type { SpecContent } from "./internal.actions";
import { openapiSchema } from "./openapi.service";
import type { OpenAPIService } from "./service-types";

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

describe("openapi service", () => {
  let broker: ServiceBroker;
  let service: OpenAPIService;
  const heard: Array<Record<string, unknown>> = [];
  const as = { meta: { user: { id: "u1", instanceAdmin: false } } };

  beforeAll(async () => {
    broker = new ServiceBroker({ logger: false });
    bindConfig(broker, loadConfig({ DATA_DIR: ":memory:" }));
    service = broker.createService(openapiSchema() as unknown as ServiceSchema) as unknown as OpenAPIService;
    broker.createService(orgsStub);
    broker.createService({
      name: "listener",
      events: {
        "openapi.spec.versioned": {
          handler(ctx: Context<Record<string, unknown>>) {
            heard.push(ctx.params);
          },
        },
      },
    });
    await broker.start();
  });
  afterAll(() => broker.stop());

  function leftBehind(fields: Partial<SpecDoc>): SpecDoc {
    const now = new Date().toISOString();
    const id = `left-${Math.random().toString(36).slice(2)}`;
    return {
      id,
      organizationId: "org1",
      slug: id,
      source: { text: specFixture("3.0", "json") },
      visibility: "private",
      processingState: "pending",
      sourceRevision: 1,
      claimedAt: "",
      createdAt: now,
      updatedAt: now,
      ...fields,
    };
  }

  test("a sweep processes specs a restart left pending or abandoned in progress, not ones a live run holds", async () => {
    const pending = await service.specs.insert(leftBehind({}));
    const abandoned = await service.specs.insert(leftBehind({ processingState: "progress", claimedAt: "2000-01-01T00:00:00.000Z" }));
    const held = await service.specs.insert(leftBehind({ processingState: "progress", claimedAt: new Date().toISOString() }));
    await service.sweep();
    await service.queue.idle();
    for (const id of [pending.id, abandoned.id]) {
      expect(await service.specs.findOne({ id })).toMatchObject({ processingState: "complete", lastVersion: expect.any(String) });
    }
    expect(await service.specs.findOne({ id: held.id })).toMatchObject({ processingState: "progress" });
  });

  test("getSpecContent answers the latest good version's document, and null before there is one", async () => {
    const created = await broker.call<{ slug: string }, unknown>("openapi.create", { organizationId: "org2", slug: "pets", source: { text: specFixture("3.1", "yaml") } }, as);
    expect(await broker.call("openapi.getSpecContent", { organizationId: "org2", slug: "nope" })).toBeNull();
    await service.queue.idle();
    const content = await broker.call<SpecContent, unknown>("openapi.getSpecContent", { organizationId: "org2", slug: created.slug });
    expect(content).toMatchObject({ slug: "pets", lastVersion: expect.any(String), document: { openapi: "3.1.0", info: { title: "Pets" } } });
    expect(heard).toContainEqual({ organizationId: "org2", slug: "pets", id: content.id, versionId: content.lastVersion });
  });

  test("getSpecContentBySource answers the spec registered with that URL (with where it came from), and null for any other URL or organization", async () => {
    const url = "https://specs.example.com/pets.yaml";
    const now = new Date().toISOString();
    const stored = (id: string, organizationId: string, createdAt: string, lastVersion?: string) => ({
      id, organizationId, slug: id, source: { url }, visibility: "private" as const, processingState: "complete" as const, sourceRevision: 1, claimedAt: "", createdAt, updatedAt: now, ...(lastVersion ? { lastVersion } : {}),
    });
    // The oldest spec with a version wins; one without a version yet does not answer.
    await service.specs.insert(stored("by-url-new", "org3", "2026-02-01T00:00:00.000Z", "v-new"));
    await service.specs.insert(stored("by-url-old", "org3", "2026-01-01T00:00:00.000Z", "v-old"));
    await service.specs.insert(stored("by-url-none", "org3", "2025-01-01T00:00:00.000Z"));
    for (const [id, specId, title] of [["v-new", "by-url-new", "New"], ["v-old", "by-url-old", "Old"]]) {
      await service.versions.insert({ id, specId, organizationId: "org3", createdAt: now, sourceURL: url, hash: id, specVersion: "3.1.0" });
      await service.documents.insert({ id, specId, json: JSON.stringify({ openapi: "3.1.0", info: { title }, paths: {} }) });
    }
    const content = await broker.call<SpecContent | null, unknown>("openapi.getSpecContentBySource", { organizationId: "org3", url });
    expect(content).toMatchObject({ slug: "by-url-old", lastVersion: "v-old", sourceURL: url, document: { info: { title: "Old" } } });
    expect(await broker.call("openapi.getSpecContentBySource", { organizationId: "org3", url: "https://specs.example.com/other.yaml" })).toBeNull();
    expect(await broker.call("openapi.getSpecContentBySource", { organizationId: "org4", url })).toBeNull();
    // getSpecContent tells where a version came from too.
    expect(await broker.call("openapi.getSpecContent", { organizationId: "org3", slug: "by-url-new" })).toMatchObject({ sourceURL: url });
  });
});
