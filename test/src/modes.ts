// The process modes a suite runs in: always one process (on the embedded store); over NATS when the global
// setup found it, one process per service, with every collection in a fresh database on the MongoDB-wire
// server E2E_MONGO_URL names when it is set (testkit's startNats), on the embedded store otherwise. These are
// the two shapes the project ships: one container, and services scaled out over NATS on MongoDB.
import type { ServiceName } from "@docshelf/config";
import { startEmbedded, startNats, sharedSystem, type EmbeddedOptions, type RunningSystem } from "@docshelf/testkit";

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
 * The processes of a private system over NATS: three, each with services of its own, so that a request still
 * crosses NATS from the gateway to the data services and between them (content and change requests, comments and
 * identity), while starting costs a third of ten processes (about 10 of 20 s of CPU each time, measured on the
 * loaded 2-core machine; some 35 private systems start in a run). The shared system over NATS keeps one process per
 * service, and the suites about processes (kills, restarts, scaling, several gateways) start theirs with startNats.
 */
export const PRIVATE_PROCESSES: ServiceName[][] = [
  ["gateway", "app", "sites"],
  ["content", "comments", "git-sync", "openapi"],
  ["identity", "orgs", "change-requests"],
];

/**
 * A system of the suite's own, for a suite that changes settings through the environment (overrideEnv) or
 * reads the processes' logs (`captureLogs` in one process; over NATS they are always kept) or the store's files.
 */
export function startPrivate(mode: Mode, env: Record<string, string> = {}, options: EmbeddedOptions = {}): Promise<RunningSystem> {
  return mode === "embedded" ? startEmbedded(env, options) : startNats({ env, processes: PRIVATE_PROCESSES });
}
