// Scaled out (TRANSPORTER=nats://…), every merge is also published as a durable @moleculer/channels
// message on NATS JetStream, channel `change-requests.merged`: a consumer group (git-sync's exports, say)
// that is down or restarting gets it when it is back, which the `change-requests.merged` broadcast cannot
// promise. The stream is made here, at start, so messages are kept even before any group subscribes.
import { changeRequestsMerged } from "@docshelf/contracts/events";
import type { ChangeRequestMerged } from "@docshelf/contracts/change-requests";
import type { ServiceBroker } from "moleculer";
import type { ConnectionOptions } from "nats";

// The adapters ship without types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Adapters } = require("@moleculer/channels") as { Adapters: { resolve(opts: Record<string, unknown>): ChannelAdapter } };

interface ChannelAdapter {
  init(broker: ServiceBroker, logger: unknown): void;
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  addPrefixTopic(topic: string): string;
  createStream(name: string, subjects: string[], config: Record<string, unknown>): Promise<unknown>;
  publish(channel: string, payload: unknown, opts?: Record<string, unknown>): Promise<void>;
  manager: { streams: { info(name: string): Promise<unknown> } };
}

export const MERGED_CHANNEL = changeRequestsMerged.name;
/** How long JetStream keeps a merge for groups that have not read it yet. */
const KEEP_NS = 7 * 24 * 3600 * 1e9;

/** What the channel and the broadcast carry. */
export type MergedMessage = ChangeRequestMerged;

export interface MergedChannel {
  publish(message: MergedMessage): Promise<void>;
  stop(): Promise<void>;
}

/** Connects to JetStream and makes the channel's stream; throws when JetStream is not there. */
export async function startMergedChannel(broker: ServiceBroker, nats: ConnectionOptions, replicas = 1): Promise<MergedChannel> {
  const adapter = Adapters.resolve({ type: "NATS", options: { nats: { connectionOptions: nats, streamConfig: { max_age: KEEP_NS, num_replicas: replicas } } } });
  adapter.init(broker, broker.getLogger("change-requests-channel"));
  await adapter.connect();
  const subject = adapter.addPrefixTopic(MERGED_CHANNEL);
  // The name @moleculer/channels gives the stream of a channel, so a consumer group finds this one.
  const stream = subject.split(".").join("_");
  try {
    await adapter.createStream(stream, [subject], {});
    await adapter.manager.streams.info(stream);
  } catch (err) {
    await adapter.disconnect();
    throw err;
  }
  return {
    publish: (message) => adapter.publish(subject, message),
    stop: () => adapter.disconnect(),
  };
}
