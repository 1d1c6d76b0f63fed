// A process loads the code of the services it runs and of no other (SERVICE_LOADERS): checked in a fresh
// Node.js process on the built package, whose module cache tells exactly which service packages it read.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { ALL_SERVICES, type ServiceName } from "@docshelf/config";

const DIST = join(__dirname, "../dist/index.js");

/** The service packages (`@docshelf/<service>`) whose files a new process required after building a broker for `services`. */
function servicesLoadedFor(services: string): string[] {
  const script = `
    const { loadConfig } = require("@docshelf/config");
    const { createBroker } = require(${JSON.stringify(DIST)});
    const cfg = loadConfig({ SERVICES: process.argv[1], TRANSPORTER: "Fake", NAMESPACE: "lazy", DATA_DIR: ":memory:", HOST: "127.0.0.1", LOGLEVEL: "fatal" });
    createBroker(cfg, { logger: false });
    const names = new Set();
    for (const file of Object.keys(require.cache)) {
      const match = /[\\\\/]services[\\\\/]([^\\\\/]+)[\\\\/]dist[\\\\/]/.exec(file);
      if (match) names.add(match[1]);
    }
    process.stdout.write(JSON.stringify([...names].sort()));
  `;
  const out = execFileSync(process.execPath, ["-e", script, services], { cwd: __dirname, encoding: "utf8" });
  return JSON.parse(out) as string[];
}

// Each case starts a Node.js process that loads up to every service: seconds each on a busy machine.
jest.setTimeout(60_000);

describe("services are loaded only by the processes that run them", () => {
  test.each<ServiceName[]>([["orgs"], ["gateway"], ["content", "comments"]])("SERVICES=%s loads that code and no other service's", (...services) => {
    expect(servicesLoadedFor(services.join(","))).toEqual([...services].sort());
  });

  test("SERVICES=all loads every service", () => {
    expect(servicesLoadedFor("all")).toEqual([...ALL_SERVICES].sort());
  });
});
