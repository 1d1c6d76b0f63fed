// The Kubernetes manifests and the compose file, parsed: every service deployed the same way, with the env it needs.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments, parse } from "yaml";
import { ALL_SERVICES, VARIABLES } from "@docshelf/config";

const DEPLOY = join(__dirname, "..", "..", "deploy");
const K8S = join(DEPLOY, "k8s");
const KNOWN = new Set(VARIABLES.map((v) => v.name));
/** tracking.shutdownTimeout in packages/runtime/src/moleculer.config.ts. */
const SHUTDOWN_TIMEOUT_S = 10;

interface Manifest {
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  [key: string]: any;
}

function manifests(): Manifest[] {
  const kustomization = parse(readFileSync(join(K8S, "kustomization.yaml"), "utf8"));
  return (kustomization.resources as string[]).flatMap((file) =>
    parseAllDocuments(readFileSync(join(K8S, file), "utf8")).map((doc) => {
      if (doc.errors.length) throw new Error(`${file}: ${doc.errors[0].message}`);
      return doc.toJS() as Manifest;
    }),
  );
}

const all = manifests();
const ofKind = (kind: string) => all.filter((m) => m.kind === kind);
const configMap = ofKind("ConfigMap").find((m) => m.metadata.name === "docshelf-config")!;
const secret = ofKind("Secret").find((m) => m.metadata.name === "docshelf-secrets")!;
const deploymentOf = (service: string) => ofKind("Deployment").find((d) => d.metadata.labels?.["app.kubernetes.io/component"] === service);

/** A container's environment as name -> where it comes from (a literal, a ConfigMap key or a Secret key). */
function environment(container: any): Map<string, { value?: string; configMap?: string; secret?: string }> {
  const env = new Map<string, { value?: string; configMap?: string; secret?: string }>();
  for (const from of container.envFrom ?? []) {
    const name = from.configMapRef?.name ?? from.secretRef?.name;
    const source = [configMap, secret].find((m) => m.metadata.name === name);
    if (!source) throw new Error(`envFrom names a missing ConfigMap or Secret: ${name}`);
    for (const [key, value] of Object.entries(source.data ?? source.stringData ?? {})) {
      env.set(key, source.kind === "Secret" ? { secret: name } : { configMap: name, value: String(value) });
    }
  }
  for (const e of container.env ?? []) {
    if (e.valueFrom?.secretKeyRef) env.set(e.name, { secret: e.valueFrom.secretKeyRef.name });
    else if (e.valueFrom?.configMapKeyRef) env.set(e.name, { configMap: e.valueFrom.configMapKeyRef.name });
    else env.set(e.name, { value: e.value });
  }
  return env;
}

describe("Kubernetes manifests (deploy/k8s)", () => {
  test("kustomization lists every manifest in the folder, and each parses", () => {
    const listed = parse(readFileSync(join(K8S, "kustomization.yaml"), "utf8")).resources as string[];
    const files = readdirSync(K8S).filter((f) => f.endsWith(".yaml") && f !== "kustomization.yaml");
    expect([...listed].sort()).toEqual(files.sort());
    expect(all.every((m) => typeof m.kind === "string" && typeof m.metadata?.name === "string")).toBe(true);
  });

  test.each([...ALL_SERVICES])("%s has a Deployment of the one image that runs only that service", (service) => {
    const deployment = deploymentOf(service);
    expect(deployment).toBeDefined();
    const [container] = deployment!.spec.template.spec.containers;
    expect(container.image).toBe("docshelf");
    const env = environment(container);
    expect(env.get("SERVICES")).toEqual({ value: service });
    expect(env.get("TRANSPORTER")?.value).toMatch(/^nats:\/\/nats:4222$/);
    expect(env.get("NAMESPACE")?.value).toBeTruthy();
    expect(env.get("MONGO_URL")).toEqual({ secret: "docshelf-secrets" });
  });

  test.each([...ALL_SERVICES])("%s runs two replicas with resources, liveness on /health and readiness on /ready of a port it serves", (service) => {
    const deployment = deploymentOf(service)!;
    expect(deployment.spec.replicas).toBeGreaterThanOrEqual(2);
    const [container] = deployment.spec.template.spec.containers;
    for (const kind of ["requests", "limits"]) {
      expect(container.resources[kind]).toEqual({ cpu: expect.anything(), memory: expect.anything() });
    }
    expect(container.livenessProbe.httpGet.path).toBe("/health");
    expect(container.readinessProbe.httpGet.path).toBe("/ready");
    const portName = container.readinessProbe.httpGet.port;
    expect(container.livenessProbe.httpGet.port).toBe(portName);
    const port = container.ports.find((p: any) => p.name === portName)?.containerPort;
    const env = environment(container);
    // The gateway serves the probes on PORT; every other process on HEALTH_PORT.
    const served = service === "gateway" ? env.get("PORT")?.value : env.get("HEALTH_PORT")?.value;
    expect(String(port)).toBe(served);
  });

  test.each([...ALL_SERVICES])("%s shuts down gracefully: preStop pause plus the broker's shutdown timeout fit in the grace period", (service) => {
    const pod = deploymentOf(service)!.spec.template.spec;
    const [container] = pod.containers;
    const command = container.lifecycle.preStop.exec.command as string[];
    expect(command[0]).toBe("sleep");
    expect(Number(command[1]) + SHUTDOWN_TIMEOUT_S).toBeLessThan(pod.terminationGracePeriodSeconds);
  });

  test("every variable a docshelf container gets is one the configuration module knows", () => {
    for (const deployment of ofKind("Deployment")) {
      for (const container of deployment.spec.template.spec.containers) {
        const unknown = [...environment(container).keys()].filter((name) => !KNOWN.has(name));
        expect({ deployment: deployment.metadata.name, unknown }).toEqual({ deployment: deployment.metadata.name, unknown: [] });
      }
    }
  });

  test("ADMIN_TOKEN and MONGO_URL are only in the Secret, and only identity gets ADMIN_TOKEN", () => {
    expect(Object.keys(secret.stringData).sort()).toEqual(["ADMIN_TOKEN", "MONGO_URL"]);
    expect(Object.keys(configMap.data)).not.toEqual(expect.arrayContaining(["ADMIN_TOKEN"]));
    expect(Object.keys(configMap.data)).not.toEqual(expect.arrayContaining(["MONGO_URL"]));
    for (const service of ALL_SERVICES) {
      const env = environment(deploymentOf(service)!.spec.template.spec.containers[0]);
      expect({ service, admin: env.get("ADMIN_TOKEN") }).toEqual({ service, admin: service === "identity" ? { secret: "docshelf-secrets" } : undefined });
    }
  });

  test("the gateway is reachable through a Service and an Ingress; its replicas keep one pod through disruptions", () => {
    const gateway = deploymentOf("gateway")!;
    const service = ofKind("Service").find((s) => s.spec.selector?.["app.kubernetes.io/component"] === "gateway")!;
    expect(service.spec.selector).toEqual(gateway.spec.selector.matchLabels);
    const ingress = ofKind("Ingress")[0];
    expect(ingress.spec.rules[0].http.paths[0].backend.service.name).toBe(service.metadata.name);
    const budgets = ofKind("PodDisruptionBudget").map((b) => b.spec.selector.matchLabels["app.kubernetes.io/component"]);
    expect(budgets).toEqual(expect.arrayContaining([...ALL_SERVICES]));
  });

  test("NATS runs JetStream in a StatefulSet, and MongoDB runs as a replica set with a Job that initiates it", () => {
    const nats = ofKind("StatefulSet").find((s) => s.metadata.name === "nats")!;
    const natsConf = ofKind("ConfigMap").find((m) => m.metadata.name === "nats-config")!.data["nats.conf"];
    expect(natsConf).toMatch(/jetstream\s*{/);
    expect(nats.spec.volumeClaimTemplates).toHaveLength(1);
    const mongo = ofKind("StatefulSet").find((s) => s.metadata.name === "mongodb")!;
    expect(mongo.spec.template.spec.containers[0].args).toEqual(expect.arrayContaining(["--replSet", "rs0"]));
    const init = ofKind("Job").find((j) => j.metadata.name === "mongodb-init")!;
    expect(init.spec.template.spec.containers[0].command.join(" ")).toContain("rs.initiate");
    expect(secret.stringData.MONGO_URL).toContain("replicaSet=rs0");
    for (let i = 0; i < mongo.spec.replicas; i++) expect(secret.stringData.MONGO_URL).toContain(`mongodb-${i}.mongodb:27017`);
  });
});

describe("compose file (deploy/compose.yaml)", () => {
  const compose = parse(readFileSync(join(DEPLOY, "compose.yaml"), "utf8"), { merge: true });

  test("has the same services as the Kubernetes manifests, plus NATS with JetStream and MongoDB as a replica set", () => {
    expect(Object.keys(compose.services).sort()).toEqual([...ALL_SERVICES, "mongodb", "nats"].sort());
    expect(compose.services.nats.command).toContain("-js");
    expect(compose.services.mongodb.command).toEqual(expect.arrayContaining(["--replSet", "rs0"]));
  });

  test.each([...ALL_SERVICES])("%s runs the one image with SERVICES set to it and only known variables", (service) => {
    const definition = compose.services[service];
    expect(definition.image).toBe(compose.services.gateway.image);
    expect(definition.environment.SERVICES).toBe(service);
    expect(definition.environment.TRANSPORTER).toBe("nats://nats:4222");
    expect(definition.environment.MONGO_URL).toContain("replicaSet=rs0");
    expect(Object.keys(definition.environment).filter((name) => !KNOWN.has(name))).toEqual([]);
    expect(definition.healthcheck.test.join(" ")).toContain("/ready");
  });
});
