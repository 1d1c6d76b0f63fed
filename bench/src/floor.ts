// The floor: a bare moleculer-web gateway with one route, GET /v1/spaces/:spaceId, mapped to an action
// that answers the space JSON captured from the real API, without doing any work.
//
// Env: FLOOR_ROLE = all (gateway and action in this process) | gateway | action; PORT; FLOOR_BODY (file with
// the captured JSON); TRANSPORTER (empty: no transporter); NAMESPACE.
//
// Variants, only for finding out where the time goes (ablate.ts), never for the benchmark's floor:
//   FLOOR_BROKER=runtime  the project's broker options (bulkhead, circuit breaker, tracking, validator, pino, timeout)
//   FLOOR_GATEWAY=real    the project's real gateway service (auth, request ids, body parsers, error rendering) in
//                         front of stub identity/orgs/content services that do no work; implies FLOOR_BROKER=runtime
//   FLOOR_OPTS_OFF=a,b    with the project's broker options, turn these off: bulkhead, circuitBreaker, tracking,
//                         validator, requestTimeout, logger (Console at warn instead of pino)
import { readFileSync } from "node:fs";
import { ServiceBroker, type BrokerOptions, type ServiceSchema } from "moleculer";
import ApiGateway from "moleculer-web";

const role = process.env.FLOOR_ROLE || "all";
if (!["all", "gateway", "action"].includes(role)) throw new Error(`FLOOR_ROLE must be all, gateway or action, got "${role}"`);
const realGateway = process.env.FLOOR_GATEWAY === "real";
const runtimeBroker = realGateway || process.env.FLOOR_BROKER === "runtime";

const bare: BrokerOptions = {
  namespace: process.env.NAMESPACE || "",
  transporter: (process.env.TRANSPORTER || null) as BrokerOptions["transporter"],
  // The same serializer the real system uses, so NATS packets cost the same to encode.
  serializer: "JSON",
  logger: { type: "Console", options: { level: "warn" } },
  logLevel: "warn",
  metrics: { enabled: false },
  tracing: { enabled: false },
};

function makeBroker(): ServiceBroker {
  if (!runtimeBroker) return new ServiceBroker(bare);
  // Loaded only for the variants, so that the bare floor does not even load the project's modules.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { loadConfig } = require("@docshelf/config") as typeof import("@docshelf/config");
  const { brokerOptions } = require("@docshelf/runtime") as typeof import("@docshelf/runtime");
  const { createBroker } = require("@docshelf/server") as typeof import("@docshelf/server");
  /* eslint-enable @typescript-eslint/no-require-imports */
  const cfg = loadConfig({ ...process.env, SERVICES: "gateway" });
  const overrides: BrokerOptions = {};
  for (const feature of (process.env.FLOOR_OPTS_OFF || "").split(",").filter(Boolean)) {
    if (feature === "logger") overrides.logger = bare.logger;
    else if (feature === "requestTimeout") overrides.requestTimeout = 0;
    else if (feature === "validator") overrides.validator = false;
    else if (feature === "bulkhead" || feature === "circuitBreaker" || feature === "tracking") {
      overrides[feature] = { ...(brokerOptions(cfg)[feature] as object), enabled: false };
    } else throw new Error(`FLOOR_OPTS_OFF: unknown feature "${feature}"`);
  }
  if (realGateway && role !== "action") return createBroker(cfg, overrides);
  return new ServiceBroker({ ...brokerOptions(cfg), ...overrides });
}

const broker = makeBroker();
const actionName = realGateway ? "content.getSpace" : "floor.getSpace";

if (role !== "gateway") {
  const bodyFile = process.env.FLOOR_BODY;
  if (!bodyFile) throw new Error("FLOOR_BODY is not set");
  // Parsed once: the action hands back the same object every time and moleculer-web (or the
  // transporter's serializer) turns it into the same bytes the real API sent.
  const space = JSON.parse(readFileSync(bodyFile, "utf8")) as Record<string, unknown>;
  const [service, action] = actionName.split(".");
  broker.createService({
    name: service,
    actions: {
      [action]: {
        visibility: "published",
        handler() {
          return space;
        },
      },
    },
  });
  if (realGateway) {
    // What the real gateway needs besides content: a caller for any token, and the services /ready checks.
    broker.createService({
      name: "identity",
      actions: {
        authenticate: {
          visibility: "public",
          handler() {
            return { id: "bench-user", instanceAdmin: true };
          },
        },
      },
    });
    broker.createService({ name: "orgs" });
  }
}

if (role !== "action" && !realGateway) {
  broker.createService({
    name: "floorgw",
    mixins: [ApiGateway as unknown as Partial<ServiceSchema>],
    settings: {
      port: Number(process.env.PORT || 0),
      ip: "127.0.0.1",
      logRequestParams: null,
      logResponseData: null,
      routes: [
        {
          path: "/v1",
          mappingPolicy: "restrict",
          autoAliases: false,
          aliases: { "GET /spaces/:spaceId": actionName },
          bodyParsers: { json: false, urlencoded: false },
        },
      ],
    },
  } as ServiceSchema);
}

const stop = async () => {
  await broker.stop();
  process.exit(0);
};
process.once("SIGTERM", () => void stop());
process.once("SIGINT", () => void stop());

broker.start().catch((err: unknown) => {
  process.stderr.write(`floor failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
