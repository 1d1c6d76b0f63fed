// Where does the time go? Measures, side by side and in rotating order, the bare floor, the floor with the project's
// broker options, the project's real gateway in front of stub services, and the real system. Prints a table; writes nothing.
//
//   node bench/dist/ablate.js        (after npm run build; same BENCH_* env as run.js)
import { isLoopback, natsReachable } from "./procs";
import {
  BARE_FLOOR, CONNECTIONS, DURATION_S, MODES, NATS_URL, RUNS, WARMUP_S, watchdogMs, measure, median, startFloor, startReal, stopSystem, type FloorVariant, type Mode, type Sample, type System, runBench,
} from "./systems";

const VARIANTS: Array<{ variant: FloorVariant; what: string }> = [
  { variant: BARE_FLOOR, what: "bare moleculer-web + action (the benchmark's floor)" },
  { variant: { name: "floor+opts", env: { FLOOR_BROKER: "runtime" } }, what: "same, with the project's broker options" },
  { variant: { name: "real-gateway", env: { FLOOR_GATEWAY: "real" } }, what: "the project's gateway and broker options, stub services" },
];
// BENCH_ABLATE=broker also measures the project's broker options with one feature at a time turned off.
if (process.env.BENCH_ABLATE === "broker") {
  for (const feature of ["bulkhead", "circuitBreaker", "tracking", "requestTimeout", "logger"]) {
    VARIANTS.push({
      variant: { name: `floor+opts-${feature}`, env: { FLOOR_BROKER: "runtime", FLOOR_OPTS_OFF: feature } },
      what: `the project's broker options without ${feature}`,
    });
  }
}

/** BENCH_ABLATE=features also measures the real system with one of the gateway's configurable features off. */
const FEATURES_OFF: Array<{ name: string; env: NodeJS.ProcessEnv; what: string }> =
  process.env.BENCH_ABLATE === "features" ? [{ name: "real-nolimit", env: { RATE_LIMIT_PER_MINUTE: "0" }, what: "the real system without rate limiting" }] : [];

async function ablate(mode: Mode): Promise<string[]> {
  if (mode === "nats") {
    if (!isLoopback(new URL(NATS_URL).hostname)) throw new Error("NATS_URL must point at a loopback address");
    if (!(await natsReachable(NATS_URL))) return [`| ${mode} | skipped: no NATS at ${NATS_URL} | | | | |`];
  }
  const systems: Array<{ system: System; what: string; samples: Sample[] }> = [];
  try {
    const real = await startReal(mode);
    systems.push({ system: real.system, what: "the real system", samples: [] });
    for (const off of FEATURES_OFF) systems.push({ system: (await startReal(mode, off.name, off.env)).system, what: off.what, samples: [] });
    for (const { variant, what } of VARIANTS) {
      systems.push({ system: await startFloor(mode, real.spaceId, real.body, variant, real.system.headers), what, samples: [] });
    }
    for (let run = 0; run < RUNS; run++) {
      // Rotate the order so that no system always runs first or right after another.
      for (let i = 0; i < systems.length; i++) {
        const entry = systems[(run + i) % systems.length];
        const sample = await measure(entry.system);
        entry.samples.push(sample);
        process.stdout.write(`${entry.system.label.padEnd(24)} run ${run + 1}: ${sample.rps.toFixed(0).padStart(6)} req/s, ${sample.cpuUsPerReq} µs CPU/req\n`);
      }
    }
  } finally {
    for (const entry of systems) await stopSystem(entry.system);
  }
  const floorRps = median(systems.find((s) => s.system.label.endsWith(" floor"))!.samples.map((s) => s.rps));
  return systems.map(({ system, what, samples }) => {
    const rps = median(samples.map((s) => s.rps));
    const cpu = median(samples.map((s) => s.cpuUsPerReq));
    const p99 = median(samples.map((s) => s.p99));
    return `| ${system.label} | ${what} | ${rps.toFixed(0)} | ${p99.toFixed(2)} | ${cpu} | ${(rps / floorRps).toFixed(2)} |`;
  });
}

async function main(): Promise<void> {
  process.stdout.write(`ablate: ${RUNS} runs × (${WARMUP_S} s + ${DURATION_S} s), ${CONNECTIONS} connections, modes ${MODES.join(", ")}\n`);
  const rows = ["| system | what | req/s (median) | p99 ms | CPU µs/req | vs floor |", "| --- | --- | ---: | ---: | ---: | ---: |"];
  for (const mode of MODES) rows.push(...(await ablate(mode)));
  process.stdout.write(`\n${rows.join("\n")}\n`);
}

runBench("ablate", watchdogMs(VARIANTS.length + FEATURES_OFF.length + 1), main);
