// The connection options of every NATS client of a process, from the configuration's `nats`: the
// transporter's, the JetStream channels', the gateway's shared buckets'. One place, so none of them
// connects without the credentials the others use.
import { readFileSync } from "node:fs";
import { credsAuthenticator, nkeyAuthenticator, type ConnectionOptions } from "nats";
import type { NatsConfig } from "./index";

/** nats.js options for `nats` (servers and the one way to log in); the files are read now. */
export function natsConnectionOptions(nats: NatsConfig): ConnectionOptions {
  const options: ConnectionOptions = { servers: [...nats.servers] };
  if (nats.user !== undefined) Object.assign(options, { user: nats.user, pass: nats.pass });
  if (nats.token !== undefined) options.token = nats.token;
  if (nats.credsFile) options.authenticator = credsAuthenticator(new Uint8Array(readFileSync(nats.credsFile)));
  if (nats.nkeySeedFile) options.authenticator = nkeyAuthenticator(new TextEncoder().encode(readFileSync(nats.nkeySeedFile, "utf8").trim()));
  return options;
}
