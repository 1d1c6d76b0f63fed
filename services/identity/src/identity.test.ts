// The identity service on a broker of its own: bootstrap, tokens, authentication.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ServiceBroker, type ServiceSchema } from "moleculer";
import { bindConfig, loadConfig } from "@docshelf/config";
import { hashToken } from "@docshelf/access";
import { identitySchema } from "./identity.service";

const ADMIN = "dsk_bootstrap-token-for-tests-0123456789";

async function startIdentity(dataDir: string, adminToken = ADMIN): Promise<ServiceBroker> {
  const broker = new ServiceBroker({ logger: false });
  bindConfig(broker, loadConfig({ DATA_DIR: dataDir, ADMIN_TOKEN: adminToken }));
  broker.createService(identitySchema() as unknown as ServiceSchema);
  await broker.start();
  return broker;
}

describe("identity", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "identity-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("ADMIN_TOKEN bootstraps one instance administrator, idempotently across restarts", async () => {
    for (let i = 0; i < 3; i++) {
      const broker = await startIdentity(dir);
      const caller = await broker.call<{ id: string; instanceAdmin: boolean } | null, { tokenHash: string }>("identity.authenticate", {
        tokenHash: hashToken(ADMIN),
      });
      expect(caller?.instanceAdmin).toBe(true);
      const users = await broker.call<Record<string, unknown>, { ids: string[] }>("identity.getMany", { ids: [caller!.id] });
      expect(Object.keys(users)).toHaveLength(1);
      await broker.stop();
    }
    const broker = await startIdentity(dir);
    const svc = broker.getLocalService("identity") as unknown as { users: { count(f: object): Promise<number> }; tokens: { count(f: object): Promise<number> } };
    expect(await svc.users.count({})).toBe(1);
    expect(await svc.tokens.count({})).toBe(1);
    await broker.stop();
  });

  test("a changed ADMIN_TOKEN authenticates the same administrator", async () => {
    const first = await startIdentity(dir);
    const a = await first.call<{ id: string } | null, { tokenHash: string }>("identity.authenticate", { tokenHash: hashToken(ADMIN) });
    await first.stop();
    const second = await startIdentity(dir, "dsk_another-bootstrap-token-987654321");
    const b = await second.call<{ id: string } | null, { tokenHash: string }>("identity.authenticate", {
      tokenHash: hashToken("dsk_another-bootstrap-token-987654321"),
    });
    expect(b?.id).toBe(a?.id);
    await second.stop();
  });

  test("ADMIN_EMAIL naming an ordinary account refuses start-up instead of promoting it", async () => {
    const first = await startIdentity(dir);
    const svc = first.getLocalService("identity") as unknown as { users: { insert(d: object): Promise<unknown>; findOne(f: object): Promise<{ instanceAdmin: boolean } | null> } };
    const now = new Date().toISOString();
    await svc.users.insert({ id: "ordinary", email: "someone@corp.test", displayName: "Someone", instanceAdmin: false, createdAt: now, updatedAt: now });
    await first.stop();
    const broker = new ServiceBroker({ logger: false });
    bindConfig(broker, loadConfig({ DATA_DIR: dir, ADMIN_TOKEN: ADMIN, ADMIN_EMAIL: "Someone@corp.test" }));
    broker.createService(identitySchema() as unknown as ServiceSchema);
    await expect(broker.start()).rejects.toThrow(/ADMIN_EMAIL \(someone@corp\.test\) belongs to an existing account/);
    await broker.stop();
    const again = await startIdentity(dir);
    const check = again.getLocalService("identity") as unknown as typeof svc;
    expect((await check.users.findOne({ id: "ordinary" }))?.instanceAdmin).toBe(false);
    await again.stop();
  });

  test("tokens are stored only as hashes", async () => {
    const broker = await startIdentity(dir);
    const svc = broker.getLocalService("identity") as unknown as { tokens: { find(f: object): Promise<Array<Record<string, unknown>>> } };
    const stored = await svc.tokens.find({});
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(ADMIN);
    expect(stored[0].hash).toBe(hashToken(ADMIN));
    await broker.stop();
  });

  test("an unknown token hash authenticates nobody", async () => {
    const broker = await startIdentity(dir);
    const caller = await broker.call("identity.authenticate", { tokenHash: hashToken("dsk_unknown") });
    expect(caller).toBeNull();
    await broker.stop();
  });

  test("a token hash that is not 64 characters is a validation error", async () => {
    const broker = await startIdentity(dir);
    await expect(broker.call("identity.authenticate", { tokenHash: "short" })).rejects.toMatchObject({ type: "VALIDATION_ERROR" });
    await broker.stop();
  });
});
