// GET /v1/spaces/{id} without the kernel: the real gateway's and the floor's request handlers driven in one
// process through sockets that drop what is written, so that only the JavaScript of a request is timed. Beside
// the HTTP benchmark (run.ts) it tells how much of the gap is our code and how much is the machine's loopback
// (a slower server wakes the load generator more often). Prints a table; writes nothing; no network at all.
//
//   node bench/dist/inproc.js        (after npm run build; INPROC_ROUNDS, INPROC_REQUESTS, INPROC_CONCURRENCY)
import { IncomingMessage, ServerResponse } from "node:http";
import { Duplex } from "node:stream";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hash, randomBytes } from "node:crypto";
import { ServiceBroker, type ServiceSchema } from "moleculer";
import ApiGateway from "moleculer-web";
import { loadConfig } from "@docshelf/config";
import { call } from "@docshelf/contracts/action";
import * as content from "@docshelf/contracts/content";
import * as identity from "@docshelf/contracts/identity";
import * as orgs from "@docshelf/contracts/orgs";
import { createBroker } from "@docshelf/server";
import { bounded, median } from "./systems";

const ROUNDS = bounded("INPROC_ROUNDS", 7, 1, 50);
const REQUESTS = bounded("INPROC_REQUESTS", 20_000, 100, 1_000_000);
const CONCURRENCY = bounded("INPROC_CONCURRENCY", 10, 1, 256);

type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

/** A socket that accepts every write at once and keeps nothing (or, for `capture`, keeps what was written). */
class NullSocket extends Duplex {
  readonly remoteAddress = "127.0.0.1";
  constructor(private readonly kept?: Buffer[]) {
    super();
  }
  override _read(): void {}
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.kept?.push(Buffer.from(chunk));
    callback();
  }
  override _writev(chunks: Array<{ chunk: Buffer | string }>, callback: () => void): void {
    for (const { chunk } of chunks) this.kept?.push(Buffer.from(chunk));
    callback();
  }
  setTimeout(): this {
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
}

/**
 * One GET through `handler` on `socket` (one per lane, as a keep-alive connection); resolves with the status once
 * the answer is written.
 */
function get(handler: Handler, url: string, headers: Record<string, string>, socket: NullSocket): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = new IncomingMessage(socket as never);
    req.method = "GET";
    req.url = url;
    req.headers = { host: "127.0.0.1", ...headers };
    req.httpVersionMajor = 1;
    req.httpVersionMinor = 1;
    req.complete = true;
    req.push(null);
    const res = new ServerResponse(req);
    res.assignSocket(socket as never);
    res.on("finish", () => {
      res.detachSocket(socket as never);
      resolve(res.statusCode);
    });
    res.on("error", reject);
    handler(req, res);
  });
}

/** µs of wall time per request (one core, nothing else in this process), REQUESTS requests CONCURRENCY at a time. */
async function timeRound(handler: Handler, url: string, headers: Record<string, string>): Promise<number> {
  const lane = async () => {
    const socket = new NullSocket();
    for (let i = 0; i < REQUESTS / CONCURRENCY; i++) {
      const status = await get(handler, url, headers, socket);
      if (status !== 200) throw new Error(`answered ${status}`);
    }
  };
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  return Number(process.hrtime.bigint() - start) / 1e3 / REQUESTS;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "docshelf-inproc-"));
  const token = `dsk_${randomBytes(24).toString("base64url")}`;
  const namespace = `inproc-${randomBytes(3).toString("hex")}`;
  const cfg = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    ADMIN_TOKEN: token,
    LOGLEVEL: "warn",
    HOST: "127.0.0.1",
    PORT: "0",
    SERVICES: "all",
    TRANSPORTER: "",
    MONGO_URL: "",
    NAMESPACE: namespace,
    // As in the HTTP benchmark: the limiter stays in the path and never answers 429.
    RATE_LIMIT_PER_MINUTE: "10000000",
  });
  const real = createBroker(cfg, { logger: false });
  const floor = new ServiceBroker({ namespace: `${namespace}-floor`, logger: false, metrics: { enabled: false }, tracing: { enabled: false } });
  try {
    await real.start();
    const user = await call(real, identity.authenticate, { tokenHash: hash("sha256", token, "hex") });
    const meta = { user };
    const org = await call(real, orgs.create, { title: "Acme" }, { meta });
    const space = await call(real, content.createSpace, { organizationId: org.id, title: "Docs" }, { meta });
    const url = `/v1/spaces/${space.id}`;
    const headers = { authorization: `Bearer ${token}` };
    const gateway = real.getLocalService("gateway") as unknown as { httpHandler: Handler };
    const realHandler: Handler = (req, res) => gateway.httpHandler(req, res);

    // The floor answers the bytes the real gateway answered, parsed once, as the HTTP benchmark's floor does.
    const kept: Buffer[] = [];
    await get(realHandler, url, headers, new NullSocket(kept));
    const raw = Buffer.concat(kept).toString();
    const body = JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4)) as Record<string, unknown>;
    floor.createService({ name: "floor", actions: { getSpace: { visibility: "published", handler: () => body } } });
    floor.createService({
      name: "floorgw",
      mixins: [ApiGateway as unknown as Partial<ServiceSchema>],
      settings: {
        port: 0,
        ip: "127.0.0.1",
        logRequestParams: null,
        logResponseData: null,
        routes: [{ path: "/v1", mappingPolicy: "restrict", autoAliases: false, aliases: { "GET /spaces/:spaceId": "floor.getSpace" }, bodyParsers: { json: false, urlencoded: false } }],
      },
    } as ServiceSchema);
    await floor.start();
    const floorGateway = floor.getLocalService("floorgw") as unknown as { httpHandler: Handler };
    const floorHandler: Handler = (req, res) => floorGateway.httpHandler(req, res);

    const systems = [
      { label: "floor (bare moleculer-web + action)", handler: floorHandler, samples: [] as number[] },
      { label: "real (every service, embedded store)", handler: realHandler, samples: [] as number[] },
    ];
    // Warm-up: both reach their optimized code before anything is timed.
    for (const system of systems) for (let i = 0; i < 2; i++) await timeRound(system.handler, url, headers);
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < systems.length; i++) {
        const system = systems[(round + i) % systems.length];
        system.samples.push(await timeRound(system.handler, url, headers));
      }
    }
    const floorUs = median(systems[0].samples);
    const rows = ["| handler | µs per request (median) | best | floor / this |", "| --- | ---: | ---: | ---: |"];
    for (const { label, samples } of systems) {
      const us = median(samples);
      rows.push(`| ${label} | ${us.toFixed(2)} | ${Math.min(...samples).toFixed(2)} | ${(floorUs / us).toFixed(2)} |`);
    }
    process.stdout.write(`inproc: ${ROUNDS} rounds of ${REQUESTS} requests, ${CONCURRENCY} at a time, no sockets\n\n${rows.join("\n")}\n`);
  } finally {
    await floor.stop().catch(() => undefined);
    await real.stop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`inproc failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
