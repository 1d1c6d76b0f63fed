// The program: the list of services and a broker that runs those this process is configured for.
// Only the entry point (main.ts), tests and benchmarks import this package; services never do.
import { ServiceBroker, type ServiceSchema } from "moleculer";
import { bindConfig, type Config, type ServiceName } from "@docshelf/config";
import { brokerOptions } from "@docshelf/runtime";
import { gatewaySchema } from "@docshelf/gateway";
import { identitySchema } from "@docshelf/identity";
import { orgsSchema } from "@docshelf/orgs";
import { contentSchema } from "@docshelf/content";
import { openapiSchema } from "@docshelf/openapi";
import { commentsSchema } from "@docshelf/comments";
import { sitesSchema } from "@docshelf/sites";
import { changeRequestsSchema } from "@docshelf/change-requests";
import { gitSyncSchema } from "@docshelf/git-sync";
import { appSchema } from "@docshelf/app";

/** Every service by the name SERVICES uses for it. */
export const SCHEMAS: Record<ServiceName, (cfg: Config) => ServiceSchema> = {
  gateway: gatewaySchema as unknown as (cfg: Config) => ServiceSchema,
  identity: identitySchema as unknown as (cfg: Config) => ServiceSchema,
  orgs: orgsSchema as unknown as (cfg: Config) => ServiceSchema,
  content: contentSchema as unknown as (cfg: Config) => ServiceSchema,
  openapi: openapiSchema as unknown as (cfg: Config) => ServiceSchema,
  comments: commentsSchema as unknown as (cfg: Config) => ServiceSchema,
  sites: sitesSchema as unknown as (cfg: Config) => ServiceSchema,
  "change-requests": changeRequestsSchema as unknown as (cfg: Config) => ServiceSchema,
  "git-sync": gitSyncSchema as unknown as (cfg: Config) => ServiceSchema,
  app: appSchema as unknown as (cfg: Config) => ServiceSchema,
};

export function createBroker(cfg: Config, overrides: Partial<ReturnType<typeof brokerOptions>> = {}): ServiceBroker {
  const broker = new ServiceBroker({ ...brokerOptions(cfg), ...overrides });
  bindConfig(broker, cfg);
  for (const name of cfg.services) broker.createService(SCHEMAS[name as ServiceName](cfg));
  return broker;
}

/** The port the gateway of this broker listens on, once started (0 in the config picks a free one). */
export function listeningPort(broker: ServiceBroker): number | undefined {
  const gateway = broker.getLocalService("gateway") as unknown as { server?: { address(): { port: number } | string | null } } | undefined;
  const address = gateway?.server?.address();
  return address && typeof address === "object" ? address.port : undefined;
}
