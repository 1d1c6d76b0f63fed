// Scaled out (TRANSPORTER=nats://…), a job's wake-up travels as a durable @moleculer/channels message on
// NATS JetStream to ONE git-sync worker of the consumer group. The store remains the record of jobs:
// the message only says "look at this space", so a lost or repeated one changes nothing but latency.
import { changeRequestsMerged } from "@docshelf/contracts/events";
import type { Service, ServiceBroker } from "moleculer";
import type { ConnectionOptions } from "nats";

// The middleware ships without types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ChannelsMiddleware = require("@moleculer/channels").Middleware as (opts: Record<string, unknown>) => ChannelsHooks;

interface ChannelsHooks {
  created(broker: ServiceBroker): void;
  serviceCreated(svc: Service): Promise<void>;
  serviceStopping(svc: Service): Promise<void>;
  started(): Promise<void>;
  stopped(): Promise<void>;
}

export const WAKE_CHANNEL = "git-sync.jobs";
/** change-requests' durable channel of merges (services/change-requests/src/merged-channel.ts). */
export const MERGED_CHANNEL = changeRequestsMerged.name;
/** Names of our own, so a broker-wide Channels middleware added later cannot clash with this one. */
export const CHANNEL_NAMES = {
  sendMethodName: "gitSyncSendToChannel",
  adapterPropertyName: "gitSyncChannelAdapter",
  schemaProperty: "gitSyncChannels",
  channelHandlerTrigger: "emitGitSyncChannelHandler",
} as const;

export interface WakeChannel {
  send(spaceId: string): Promise<void>;
  stop(): Promise<void>;
}

/** Connects the service to its JetStream channel; `svc.schema.gitSyncChannels` holds the handler. */
export async function startWakeChannel(svc: Service, nats: ConnectionOptions, replicas = 1): Promise<WakeChannel> {
  const middleware = ChannelsMiddleware({
    ...CHANNEL_NAMES,
    adapter: {
      type: "NATS",
      options: {
        nats: { connectionOptions: nats, streamConfig: { max_age: 24 * 3600 * 1e9, num_replicas: replicas } },
        maxInFlight: 10,
        maxRetries: 3,
      },
    },
  });
  middleware.created(svc.broker);
  await middleware.serviceCreated(svc);
  await middleware.started();
  const broker = svc.broker as unknown as Record<string, (channel: string, payload: unknown) => Promise<void>>;
  return {
    send: (spaceId) => broker[CHANNEL_NAMES.sendMethodName](WAKE_CHANNEL, { spaceId }),
    async stop() {
      await middleware.serviceStopping(svc);
      await middleware.stopped();
    },
  };
}
