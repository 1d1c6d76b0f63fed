// The process modes a suite runs in: always one process; over NATS when the global setup found it.
// With E2E_MONGO_URL (the second end-to-end run of `npm test`), only over NATS: one process per service,
// every collection in a fresh database on that MongoDB-wire server (testkit's startNats).
import { startEmbedded, startNats, E2E_MONGO_URL, type RunningSystem } from "@docshelf/testkit";

export type Mode = "embedded" | "nats";

export const MODES: Mode[] = E2E_MONGO_URL ? ["nats"] : process.env.E2E_NATS === "1" ? ["embedded", "nats"] : ["embedded"];

export function start(mode: Mode): Promise<RunningSystem> {
  return mode === "embedded" ? startEmbedded() : startNats();
}
