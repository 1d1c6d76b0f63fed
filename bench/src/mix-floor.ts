// The floor of the request mix (request-mix.ts): a bare moleculer-web gateway with the mix's routes (the same
// methods and paths as the real gateway's aliases), each mapped to an action that answers the status, Location and
// JSON the real API answered for that request, captured once, without doing any work.
//
// Env: FLOOR_ROLE = all (gateway and actions in this process) | gateway | action; PORT; FLOOR_ROUTES (file with
// the route table, MixFloorRoute[] as JSON); TRANSPORTER (empty: no transporter); NAMESPACE.
import { readFileSync } from "node:fs";
import { ServiceBroker, type BrokerOptions, type Context, type ServiceSchema } from "moleculer";
import ApiGateway from "moleculer-web";

/** One route of the floor: a gateway alias under /v1 and what its action answers. */
export interface MixFloorRoute {
  /** "METHOD /path/:param" as in the real gateway's routes, e.g. "GET /spaces/:spaceId/content/path/*pagePath". */
  alias: string;
  status: number;
  location?: string;
  /** The JSON text the real API answered. */
  body: string;
}

interface AnswerMeta {
  $statusCode?: number;
  $location?: string;
}

const role = process.env.FLOOR_ROLE || "all";
if (!["all", "gateway", "action"].includes(role)) throw new Error(`FLOOR_ROLE must be all, gateway or action, got "${role}"`);
const routesFile = process.env.FLOOR_ROUTES;
if (!routesFile) throw new Error("FLOOR_ROUTES is not set");
const routes = JSON.parse(readFileSync(routesFile, "utf8")) as MixFloorRoute[];

const broker = new ServiceBroker({
  namespace: process.env.NAMESPACE || "",
  transporter: (process.env.TRANSPORTER || null) as BrokerOptions["transporter"],
  // The same serializer the real system uses, so NATS packets cost the same to encode.
  serializer: "JSON",
  logger: { type: "Console", options: { level: "warn" } },
  logLevel: "warn",
  metrics: { enabled: false },
  tracing: { enabled: false },
});

const actionName = (i: number) => `r${i}`;

if (role !== "gateway") {
  const actions: NonNullable<ServiceSchema["actions"]> = {};
  routes.forEach((route, i) => {
    // Parsed once: the action hands back the same object every time and moleculer-web (or the transporter's
    // serializer) turns it into the same bytes the real API sent.
    const answer = JSON.parse(route.body) as unknown;
    actions[actionName(i)] = {
      visibility: "published",
      handler(ctx: Context<unknown, AnswerMeta>) {
        if (route.status !== 200) ctx.meta.$statusCode = route.status;
        if (route.location) ctx.meta.$location = route.location;
        return answer;
      },
    };
  });
  broker.createService({ name: "mixfloor", actions });
}

if (role !== "action") {
  broker.createService({
    name: "mixfloorgw",
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
          aliases: Object.fromEntries(routes.map((route, i) => [route.alias, `mixfloor.${actionName(i)}`])),
          // The mix has writes: parsing their JSON bodies is the framework's work, so the floor does it too.
          bodyParsers: { json: true, urlencoded: false },
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
  process.stderr.write(`mix floor failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
