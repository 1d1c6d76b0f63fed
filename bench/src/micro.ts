// Per-call cost of the pieces behind GET /v1/spaces/{id}, timed in one process without HTTP: which part of the
// real system's extra CPU per request comes from where. Prints a table; writes nothing; no network at all.
//
//   node bench/dist/micro.js        (after npm run build)
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { dirname } from "node:path";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { ServiceBroker, type ServiceSchema } from "moleculer";
import { loadConfig } from "@docshelf/config";
import { call } from "@docshelf/contracts/action";
import * as content from "@docshelf/contracts/content";
import * as identity from "@docshelf/contracts/identity";
import * as orgs from "@docshelf/contracts/orgs";
import { brokerOptions } from "@docshelf/runtime";
import { createBroker } from "@docshelf/server";

const ITERATIONS = 20_000;
const WARMUP = 5_000;
const ROUNDS = 5;

async function time(label: string, fn: () => unknown, rows: string[], baseline?: number): Promise<number> {
  for (let i = 0; i < WARMUP; i++) await fn();
  // The best of a few rounds: the least disturbed by GC, JIT and the rest of the machine.
  let us = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < ITERATIONS; i++) await fn();
    us = Math.min(us, Number(process.hrtime.bigint() - start) / 1e3 / ITERATIONS);
  }
  rows.push(`| ${label} | ${us.toFixed(2)} | ${baseline === undefined ? "" : `${us - baseline >= 0 ? "+" : ""}${(us - baseline).toFixed(2)}`} |`);
  return us;
}

const noop: ServiceSchema = {
  name: "noop",
  actions: {
    plain: { visibility: "published", handler: () => ({ ok: true }) },
    withParams: {
      visibility: "published",
      params: { spaceId: { type: "string", min: 1, max: 64 }, shareKey: { type: "string", optional: true, max: 256 } },
      handler: () => ({ ok: true }),
    },
  },
};

async function main(): Promise<void> {
  const rows = ["| piece | µs per call | vs. the line it builds on |", "| --- | ---: | ---: |"];
  const token = `dsk_${randomBytes(24).toString("base64url")}`;
  const cfg = loadConfig({ ...process.env, DATA_DIR: ":memory:", ADMIN_TOKEN: token, LOGLEVEL: "warn", SERVICES: "identity,orgs,content", TRANSPORTER: "", NAMESPACE: `micro-${randomBytes(3).toString("hex")}` });

  // 1. Moleculer defaults vs. the project's broker options, on an action that does nothing.
  const bare = new ServiceBroker({ logger: false, serializer: "JSON", metrics: { enabled: false }, tracing: { enabled: false } });
  bare.createService(noop);
  await bare.start();
  const base = await time("broker.call, Moleculer defaults, no-op action", () => bare.call("noop.plain"), rows);
  await bare.stop();

  const opts = new ServiceBroker({ ...brokerOptions(cfg), logger: false, namespace: `${cfg.namespace}-opts` });
  opts.createService(noop);
  await opts.start();
  const withOpts = await time("broker.call, project broker options, no-op action", () => opts.call("noop.plain"), rows, base);
  await time("  + the params schema of content.getSpace (validator)", () => opts.call("noop.withParams", { spaceId: "abcdefghijklmnop" }), rows, withOpts);
  await time("  + callOptions { timeout } as the gateway passes them", () => opts.call("noop.plain", {}, { timeout: cfg.requestTimeoutMs }), rows, withOpts);
  await opts.stop();

  // 2. The real content.getSpace, on the embedded store in memory.
  const real = createBroker(cfg, { logger: false });
  await real.start();
  const tokenHash = createHash("sha256").update(token).digest("hex");
  const user = await call(real, identity.authenticate, { tokenHash });
  const meta = { user };
  const org = await call(real, orgs.create, { title: "Acme" }, { meta });
  const space = await call(real, content.createSpace, { organizationId: org.id, title: "Docs" }, { meta });
  await time("content.getSpace, real action (membership cached)", () => call(real, content.getSpace, { spaceId: space.id }, { meta }), rows, withOpts);
  const contentService = real.getLocalService("content") as unknown as { spaces: { findOne(f: object): Promise<unknown> } };
  await time("  of which spaces.findOne({ id }) on the store", () => contentService.spaces.findOne({ id: space.id }), rows);
  const body = await call(real, content.getSpace, { spaceId: space.id }, { meta });
  await time("  JSON.stringify of the answer (floor pays it too)", () => JSON.stringify(body), rows);
  await real.stop();

  // 3. The gateway's own work per request.
  await time("gateway: sha256 of the bearer token (every request)", () => createHash("sha256").update(token).digest("hex"), rows);
  await time("gateway: randomUUID for X-Request-ID (every request)", () => randomUUID(), rows);
  // body-parser's json parser on a GET without a body, as the v1 route runs it on every request.
  const bodyParserPath = require.resolve("body-parser", { paths: [dirname(require.resolve("moleculer-web"))] });
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- moleculer-web's own copy, found by path
  const bodyParser = require(bodyParserPath) as { json(o: object): (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void };
  const json = bodyParser.json({ strict: true, limit: cfg.jsonBodyLimitBytes });
  const req = new IncomingMessage(new Socket());
  req.method = "GET";
  req.headers = { host: "127.0.0.1", authorization: `Bearer ${token}` };
  const res = new ServerResponse(req);
  await time(
    "gateway: body-parser json on a GET without a body",
    () =>
      new Promise<void>((resolve, reject) => {
        delete (req as { body?: unknown }).body;
        delete (req as { _body?: unknown })._body;
        json(req, res, (err) => (err ? reject(err) : resolve()));
      }),
    rows,
  );
  process.stdout.write(`\nbest of ${ROUNDS} rounds of ${ITERATIONS} sequential calls each, after ${WARMUP} warm-up calls\n\n${rows.join("\n")}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`micro failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
