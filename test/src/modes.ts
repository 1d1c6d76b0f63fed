// The process modes a suite runs in: always one process (on the embedded store); over NATS when the global
// setup found it, one process per service, with every collection in a fresh database on the MongoDB-wire
// server E2E_MONGO_URL names when it is set (testkit's startNats), on the embedded store otherwise. These are
// the two shapes the project ships: one container, and services scaled out over NATS on MongoDB.
import { startEmbedded, startNats, sharedSystem, type RunningSystem } from "@docshelf/testkit";

export type Mode = "embedded" | "nats";

export const MODES: Mode[] = process.env.E2E_NATS === "1" ? ["embedded", "nats"] : ["embedded"];

/**
 * The mode a browser suite runs in: one, since what a browser suite tests is the page its script and the server's
 * HTML make, which the HTTP suites already check to be the same in both shapes. Over NATS when the run has it (the
 * shape where a request crosses processes and a message's size or a missed event shows), in one process otherwise
 * (`npm run test:quick`, which a developer runs most): between them both shapes meet a browser. Running every
 * browser suite in both modes doubled the slowest part of the run (about 15 of the shared pass's 30 minutes in CI).
 */
export const BROWSER_MODES: Mode[] = process.env.E2E_NATS === "1" ? ["nats"] : ["embedded"];

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
export function startPrivate(mode: Mode, env: Record<string, string> = {}): Promise<RunningSystem> {
  return mode === "embedded" ? startEmbedded(env) : startNats({ env });
}
