import { loadConfig } from "@docshelf/config";
import { adminTokenNotice, startFailure } from "./start-messages";

const inUse = (port: number, address = "127.0.0.1") => Object.assign(new Error(`listen EADDRINUSE: address already in use ${address}:${port}`), { code: "EADDRINUSE", port, address });

describe("start-up messages", () => {
  test("a taken port names the variable that chose it and how to change it", () => {
    const cfg = loadConfig({ PORT: "8080", HEALTH_PORT: "9000", METRICS_PORT: "9100" });
    expect(startFailure(inUse(8080), cfg)).toBe(
      "docshelf could not start: port 8080 on 127.0.0.1 is already in use (another docshelf, or another program, listens there). Set PORT to another port, e.g. PORT=8081 npm start.",
    );
    expect(startFailure(inUse(9000), cfg)).toContain("port 9000 on 127.0.0.1 is already in use");
    expect(startFailure(inUse(9000), cfg)).toContain("Set HEALTH_PORT to another port, e.g. HEALTH_PORT=8081");
    expect(startFailure(inUse(9100), cfg)).toContain("Set METRICS_PORT to another port");
    expect(startFailure(inUse(8081), loadConfig({ PORT: "8081" }))).toContain("e.g. PORT=8082 npm start");
    expect(startFailure(Object.assign(new Error("listen EACCES"), { code: "EACCES", port: 80 }), loadConfig({ PORT: "80" }))).toBe(
      "docshelf could not start: this user may not listen on port 80. Set PORT to another port, e.g. PORT=8081 npm start.",
    );
  });

  test("any other failure is its message", () => {
    expect(startFailure(new Error("boom"), loadConfig({}))).toBe("docshelf could not start: boom");
  });

  test("the ADMIN_TOKEN notice is said only by a process that runs identity without a token", () => {
    expect(adminTokenNotice(loadConfig({}))).toContain("ADMIN_TOKEN=$(openssl rand -hex 32) npm start");
    expect(adminTokenNotice(loadConfig({ ADMIN_TOKEN: "3f9c1a7e5b2d48c0a6e1f7b9d3c5e8a1" }))).toBeUndefined();
    expect(adminTokenNotice(loadConfig({ SERVICES: "gateway,orgs" }))).toBeUndefined();
  });
});
