// NATS with authentication: every NATS client of a process (Moleculer's transporter, the JetStream
// channels of change-requests and git-sync, the gateway's shared buckets) logs in the way the
// configuration says — a password in TRANSPORTER, NATS_TOKEN or an nkey seed file — and no log line
// repeats the secret. A process with a wrong secret stays alive and unready.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { nkeys } from "nats";
import { ALL_SERVICES, type ServiceName } from "@docshelf/config";
import { createOrg, createUser, freePort, startNats, type NatsSystem } from "@docshelf/testkit";
import { MODES } from "./modes";
import { startAuthNats, type OwnServers } from "./nats-servers";

const maybe = MODES.includes("nats") ? describe : describe.skip;
const MAIN = require.resolve("@docshelf/server/dist/main.js");
/** The gateway alone, the rest in one process: the transporter, the buckets and both channels all log in. */
const PROCESSES: ServiceName[][] = [["gateway"], ALL_SERVICES.filter((s) => s !== "gateway")];

interface Way {
  name: string;
  secret: string;
  authorization: string;
  /** TRANSPORTER and the other variables for `url` (the server's, without credentials). */
  env(url: string, secret: string): Record<string, string>;
}

const dir = mkdtempSync(join(tmpdir(), "docshelf-nats-keys-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function seedFile(seed: string): string {
  const file = join(dir, `${randomBytes(6).toString("hex")}.nk`);
  writeFileSync(file, `${seed}\n`, { mode: 0o600 });
  return file;
}

const password = `pw-${randomBytes(12).toString("hex")}`;
const token = `tok-${randomBytes(12).toString("hex")}`;
const user = nkeys.createUser();
const seed = new TextDecoder().decode(user.getSeed());
const WAYS: Way[] = [
  {
    name: "a user and password in TRANSPORTER",
    secret: password,
    authorization: `authorization { user: docshelf, password: "${password}" }`,
    env: (url, secret) => ({ TRANSPORTER: url.replace("nats://", `nats://docshelf:${encodeURIComponent(secret)}@`) }),
  },
  {
    name: "NATS_TOKEN",
    secret: token,
    authorization: `authorization { token: "${token}" }`,
    env: (url, secret) => ({ TRANSPORTER: url, NATS_TOKEN: secret }),
  },
  {
    name: "an nkey seed in NATS_NKEY_SEED_FILE",
    secret: seed,
    authorization: `authorization { users: [ { nkey: "${user.getPublicKey()}" } ] }`,
    env: (url, secret) => ({ TRANSPORTER: url, NATS_NKEY_SEED_FILE: seedFile(secret) }),
  },
];

/** What the wrong secret of `way` looks like. */
function wrong(way: Way): string {
  return way.name.startsWith("an nkey") ? new TextDecoder().decode(nkeys.createUser().getSeed()) : `${way.secret}-wrong`;
}

for (const way of WAYS) {
  maybe(`NATS that requires ${way.name}`, () => {
    let nats: OwnServers;
    let sys: NatsSystem;

    beforeAll(async () => {
      nats = await startAuthNats(way.authorization);
      const env = way.env(nats.urls, way.secret);
      sys = await startNats({ processes: PROCESSES, natsUrl: env.TRANSPORTER, env });
    });

    afterAll(async () => {
      await sys?.stop();
      await nats?.dispose();
    });

    test("every process joins, the API answers, JetStream channels and buckets connect, and no log line holds the secret", async () => {
      const owner = await createUser(sys.admin);
      const org = await createOrg(owner.api);
      expect((await owner.api.get(`/v1/orgs/${org.id}`)).status).toBe(200);
      // The gateway's shared buckets count this request; the channels started (they say so when they cannot).
      await new Promise((r) => setTimeout(r, 500));
      const logs = sys.logs.join("");
      expect(logs).not.toMatch(/JetStream is not available|Authorization Violation|authentication/i);
      expect(logs).not.toContain(way.secret);
    });

    test("a process with a wrong secret stays alive but not ready, and logs neither secret", async () => {
      const healthPort = await freePort();
      const badSecret = wrong(way);
      const bad = way.env(nats.urls, badSecret);
      const child = spawn(process.execPath, [MAIN], {
        env: { ...process.env, ...bad, SERVICES: "orgs", NAMESPACE: "wrongsecret", DATA_DIR: mkdtempSync(join(dir, "data-")), HEALTH_PORT: String(healthPort), HOST: "127.0.0.1", LOGLEVEL: "info" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout?.on("data", (d) => (output += String(d)));
      child.stderr?.on("data", (d) => (output += String(d)));
      try {
        // The server refuses the login; the transporter says so and tries again every 5 s.
        const deadline = Date.now() + 20_000;
        while (Date.now() < deadline && (output.match(/Connection is failed/g) ?? []).length < 2) await new Promise((r) => setTimeout(r, 200));
        expect((output.match(/Connection is failed/g) ?? []).length).toBeGreaterThanOrEqual(2);
        expect(output).toContain("Reconnecting...");
        expect(child.exitCode).toBeNull();
        expect((await fetch(`http://127.0.0.1:${healthPort}/health`)).status).toBe(200);
        expect((await fetch(`http://127.0.0.1:${healthPort}/ready`)).status).toBe(503);
        expect(output).not.toContain(way.secret);
        expect(output).not.toContain(badSecret);
      } finally {
        child.kill("SIGKILL");
      }
    });
  });
}
