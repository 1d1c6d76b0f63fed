// The program: the list of services and a broker that runs those this process is configured for.
// Only the entry point (main.ts), tests and benchmarks import this package; services never do.
// Each service is loaded when a process runs it, not before: a process of one service (SERVICES=orgs)
// never reads the code of the other nine, which halves its start-up time (packages/server/README.md).
import { ServiceBroker, type ServiceSchema } from "moleculer";
import { bindConfig, type Config, type ServiceName } from "@docshelf/config";
import { brokerOptions } from "@docshelf/runtime";

type SchemaFactory = (cfg: Config) => ServiceSchema;

/**
 * Every service by the name SERVICES uses for it: the module that holds it, loaded on first use.
 * `require` with a literal name, so that bundlers and the image's dependency tracing still see each one.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- loading a service on first use is the point */
export const SERVICE_LOADERS: Record<ServiceName, () => SchemaFactory> = {
  gateway: () => require("@docshelf/gateway").gatewaySchema as SchemaFactory,
  identity: () => require("@docshelf/identity").identitySchema as SchemaFactory,
  orgs: () => require("@docshelf/orgs").orgsSchema as SchemaFactory,
  content: () => require("@docshelf/content").contentSchema as SchemaFactory,
  openapi: () => require("@docshelf/openapi").openapiSchema as SchemaFactory,
  comments: () => require("@docshelf/comments").commentsSchema as SchemaFactory,
  sites: () => require("@docshelf/sites").sitesSchema as SchemaFactory,
  "change-requests": () => require("@docshelf/change-requests").changeRequestsSchema as SchemaFactory,
  "git-sync": () => require("@docshelf/git-sync").gitSyncSchema as SchemaFactory,
  app: () => require("@docshelf/app").appSchema as SchemaFactory,
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** The schema of service `name` for `cfg`; loads the service's package the first time. */
export function serviceSchema(name: ServiceName, cfg: Config): ServiceSchema {
  const factory = SERVICE_LOADERS[name]();
  if (typeof factory !== "function") throw new Error(`service ${name} does not export its schema factory`);
  return factory(cfg);
}

/**
 * What a node reports as its CPU use in its heartbeats. Moleculer samples the machine's CPU for it at every heartbeat
 * (every second here: three `os.cpus()` reads 100 ms apart, each reading /proc), for its CpuUsage balancing strategy
 * and node lists; docshelf balances RoundRobin and reads no node's CPU, so a process does not measure it (over NATS
 * that sampling was about 4 % of the busy time of a test run's service processes).
 */
export const NO_CPU_SAMPLE = (): Promise<{ avg: number; usages: number[] }> => Promise.resolve({ avg: 0, usages: [] });

export function createBroker(cfg: Config, overrides: Partial<ReturnType<typeof brokerOptions>> = {}): ServiceBroker {
  const broker = new ServiceBroker({ ...brokerOptions(cfg), ...overrides });
  // Not in moleculer's types: the discoverer calls `broker.getCpuUsage` at each heartbeat.
  (broker as unknown as { getCpuUsage: typeof NO_CPU_SAMPLE }).getCpuUsage = NO_CPU_SAMPLE;
  bindConfig(broker, cfg);
  for (const name of cfg.services) broker.createService(serviceSchema(name, cfg));
  return broker;
}

/** The port the gateway of this broker listens on, once started (0 in the config picks a free one). */
export function listeningPort(broker: ServiceBroker): number | undefined {
  const gateway = broker.getLocalService("gateway") as unknown as { server?: { address(): { port: number } | string | null } } | undefined;
  const address = gateway?.server?.address();
  return address && typeof address === "object" ? address.port : undefined;
}
