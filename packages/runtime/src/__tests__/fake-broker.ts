// For the runtime's tests: brokers with the project's options on Moleculer's Fake transporter.
import { ServiceBroker, type BrokerOptions } from "moleculer";
import { loadConfig } from "@docshelf/config";
import { brokerOptions } from "../moleculer.config";

/** A broker with the project's options on the Fake transporter (one namespace per test), `overrides` on top. */
export function fakeBroker(nodeID: string, namespace: string, env: Record<string, string> = {}, overrides: BrokerOptions = {}): ServiceBroker {
  const cfg = loadConfig({ TRANSPORTER: "Fake", NAMESPACE: namespace, DATA_DIR: ":memory:", LOGLEVEL: "fatal", REQUEST_TIMEOUT_MS: "1000", ...env });
  return new ServiceBroker({ ...brokerOptions(cfg), nodeID, logger: false, ...overrides });
}
