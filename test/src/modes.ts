// The process modes a suite runs in: always one process; over NATS when the global setup found it.
import { startEmbedded, startNats, type RunningSystem } from "@docshelf/testkit";

export type Mode = "embedded" | "nats";

export const MODES: Mode[] = process.env.E2E_NATS === "1" ? ["embedded", "nats"] : ["embedded"];

export function start(mode: Mode): Promise<RunningSystem> {
  return mode === "embedded" ? startEmbedded() : startNats();
}
