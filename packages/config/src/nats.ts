// The connection options of every NATS client of a process, from the configuration's `nats`: the
// transporter's, the JetStream channels', the gateway's shared buckets'. One place, so none of them
// connects without the credentials the others use.
import { readFileSync } from "node:fs";
import { credsAuthenticator, nkeyAuthenticator, type ConnectionOptions } from "nats";
import type { NatsConfig } from "./index";

/**
 * Between two reconnect attempts to a server that went away. nats.js waits 2 s by default, so a NATS restart of a
 * second or two kept each process away for 2–4 s: close to the 4 s heartbeatTimeout after which the processes drop
 * each other (and every call between them fails until they hear each other again). Attempts on a server that is
 * down cost one refused TCP connection each.
 */
export const NATS_RECONNECT_WAIT_MS = 250;

/** nats.js options for `nats` (servers and the one way to log in); the files are read now. */
export function natsConnectionOptions(nats: NatsConfig): ConnectionOptions {
  // Never give up on the servers: nats.js stops after 10 attempts and stays closed, which for the JetStream
  // channels (change-requests' merges, git-sync's wake-ups; @moleculer/channels connects with these options as
  // they are) meant no more merge exports after any NATS outage longer than those attempts, until a restart.
  const options: ConnectionOptions = { servers: [...nats.servers], reconnectTimeWait: NATS_RECONNECT_WAIT_MS, maxReconnectAttempts: -1 };
  if (nats.user !== undefined) Object.assign(options, { user: nats.user, pass: nats.pass });
  if (nats.token !== undefined) options.token = nats.token;
  if (nats.credsFile) options.authenticator = credsAuthenticator(new Uint8Array(readFileSync(nats.credsFile)));
  if (nats.nkeySeedFile) options.authenticator = nkeyAuthenticator(new TextEncoder().encode(readFileSync(nats.nkeySeedFile, "utf8").trim()));
  return options;
}
