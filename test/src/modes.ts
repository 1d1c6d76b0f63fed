// The process modes a suite runs in: always one process; over NATS when the global setup found it.
// With E2E_MONGO_URL (the second end-to-end run of `npm test`), only over NATS: one process per service,
// every collection in a fresh database on that MongoDB-wire server (testkit's startNats).
import { startEmbedded, startNats, sharedSystem, E2E_MONGO_URL, type RunningSystem } from "@docshelf/testkit";

export type Mode = "embedded" | "nats";

export const MODES: Mode[] = E2E_MONGO_URL ? ["nats"] : process.env.E2E_NATS === "1" ? ["embedded", "nats"] : ["embedded"];

/**
 * The system of `mode` that every suite of this run shares (started once by global-setup.js): the suite
 * works in organizations and users it creates, and its `stop()` leaves the system running for the others.
 */
export async function start(mode: Mode): Promise<RunningSystem> {
  return sharedSystem(mode);
}

/**
 * A system of the suite's own, for a suite that changes settings through the environment (overrideEnv),
 * reads the processes' logs or the store's files as a whole, or stops and starts processes.
 */
export function startPrivate(mode: Mode): Promise<RunningSystem> {
  return mode === "embedded" ? startEmbedded() : startNats();
}
