// The Kubernetes manifests as `kustomize build deploy/k8s` renders them, and the compose file, parsed:
// every service deployed the same way, with the env it needs, secrets made in the cluster, none in here.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { parseAllDocuments, parse } from "yaml";
import { ALL_SERVICES, VARIABLES } from "@docshelf/config";

const DEPLOY = join(__dirname, "..", "..", "deploy");
const K8S = join(DEPLOY, "k8s");
const KNOWN = new Set(VARIABLES.map((v) => v.name));
/** tracking.shutdownTimeout in packages/runtime/src/moleculer.config.ts. */
const SHUTDOWN_TIMEOUT_S = 10;
/** The Secrets secrets.yaml's Job makes, and their keys. */
const MADE_SECRETS: Record<string, string[]> = {
  "docshelf-secrets": ["ADMIN_TOKEN", "MONGO_URL"],
  "docshelf-nats": ["NATS_TOKEN"],
  "mongodb-auth": ["MONGO_ROOT_PASSWORD", "MONGO_APP_PASSWORD", "keyfile"],
};
/** Services that scale with a HorizontalPodAutoscaler. */
const AUTOSCALED = ["gateway", "content"];

interface Manifest {
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [key: string]: any;
}

/** kustomize: KUSTOMIZE, else on PATH, else where `go install` puts it (.ci/run installs it). */
function kustomize(): string {
  if (process.env.KUSTOMIZE) return process.env.KUSTOMIZE;
  const fromGo = join(process.env.GOPATH || join(homedir(), "go"), "bin", "kustomize");
  for (const dir of (process.env.PATH ?? "").split(":")) if (dir && existsSync(join(dir, "kustomize"))) return join(dir, "kustomize");
  if (existsSync(fromGo)) return fromGo;
  throw new Error("kustomize is not installed: go install sigs.k8s.io/kustomize/kustomize/v5@v5.7.1 (or set KUSTOMIZE)");
}

function manifests(): Manifest[] {
  const rendered = execFileSync(kustomize(), ["build", K8S], { encoding: "utf8" });
  return parseAllDocuments(rendered).map((doc) => {
    if (doc.errors.length) throw new Error(`kustomize output: ${doc.errors[0].message}`);
    return doc.toJS() as Manifest;
  });
}

const all = manifests();
const ofKind = (kind: string) => all.filter((m) => m.kind === kind);
const configMap = ofKind("ConfigMap").find((m) => m.metadata.name === "docshelf-config")!;
const deploymentOf = (service: string) => ofKind("Deployment").find((d) => d.metadata.labels?.["app.kubernetes.io/component"] === service);
const autoscalerOf = (service: string) => ofKind("HorizontalPodAutoscaler").find((h) => h.spec.scaleTargetRef.name === deploymentOf(service)?.metadata.name);

/** A container's environment as name -> where it comes from (a literal, a ConfigMap key or a Secret key). */
function environment(container: any): Map<string, { value?: string; configMap?: string; secret?: string; key?: string }> {
  const env = new Map<string, { value?: string; configMap?: string; secret?: string; key?: string }>();
  for (const from of container.envFrom ?? []) {
    if (from.secretRef) throw new Error(`envFrom of a whole Secret (${from.secretRef.name}): name each key instead`);
    const source = ofKind("ConfigMap").find((m) => m.metadata.name === from.configMapRef?.name);
    if (!source) throw new Error(`envFrom names a missing ConfigMap: ${from.configMapRef?.name}`);
    for (const [key, value] of Object.entries(source.data ?? {})) env.set(key, { configMap: source.metadata.name, value: String(value) });
  }
  for (const e of container.env ?? []) {
    if (e.valueFrom?.secretKeyRef) env.set(e.name, { secret: e.valueFrom.secretKeyRef.name, key: e.valueFrom.secretKeyRef.key });
    else if (e.valueFrom?.configMapKeyRef) env.set(e.name, { configMap: e.valueFrom.configMapKeyRef.name });
    else if (e.valueFrom?.fieldRef) env.set(e.name, { value: `field:${e.valueFrom.fieldRef.fieldPath}` });
    else env.set(e.name, { value: e.value });
  }
  return env;
}

/** Every container (init containers too) of every workload. */
function containers(): Array<{ owner: string; container: any }> {
  return all
    .filter((m) => ["Deployment", "StatefulSet", "Job"].includes(m.kind))
    .flatMap((m) => [...(m.spec.template.spec.initContainers ?? []), ...m.spec.template.spec.containers].map((container: any) => ({ owner: `${m.kind}/${m.metadata.name}`, container })));
}

describe("Kubernetes manifests (kustomize build deploy/k8s)", () => {
  test("kustomization lists every manifest in the folder, and the build puts every object in the docshelf namespace", () => {
    const listed = parse(readFileSync(join(K8S, "kustomization.yaml"), "utf8")).resources as string[];
    const files = readdirSync(K8S).filter((f) => f.endsWith(".yaml") && f !== "kustomization.yaml");
    expect([...listed].sort()).toEqual(files.sort());
    expect(all.length).toBeGreaterThanOrEqual(40);
    for (const m of all.filter((m) => m.kind !== "Namespace")) expect({ object: `${m.kind}/${m.metadata.name}`, ns: m.metadata.namespace }).toEqual({ object: `${m.kind}/${m.metadata.name}`, ns: "docshelf" });
  });

  test.each([...ALL_SERVICES])("%s has a Deployment of the one image that runs only that service, with MONGO_URL unless it is the gateway", (service) => {
    const deployment = deploymentOf(service);
    expect(deployment).toBeDefined();
    const [container] = deployment!.spec.template.spec.containers;
    expect(container.image).toMatch(/^registry\.example\.com\/docshelf:/);
    const env = environment(container);
    expect(env.get("SERVICES")).toEqual({ value: service });
    expect(env.get("TRANSPORTER")?.value).toMatch(/^nats:\/\/nats:4222$/);
    expect(env.get("NAMESPACE")?.value).toBeTruthy();
    expect(env.get("NATS_TOKEN")).toEqual({ secret: "docshelf-nats", key: "NATS_TOKEN" });
    // The gateway has no store: it never gets the database's credentials.
    expect(env.get("MONGO_URL")).toEqual(service === "gateway" ? undefined : { secret: "docshelf-secrets", key: "MONGO_URL" });
  });

  test.each([...ALL_SERVICES])("%s runs at least two replicas with resources; startup only passes once its broker started, then liveness on /health and readiness on /ready", (service) => {
    const deployment = deploymentOf(service)!;
    if (AUTOSCALED.includes(service)) {
      // The autoscaler owns the count; a replicas field would fight it on every apply.
      expect(deployment.spec.replicas).toBeUndefined();
      expect(autoscalerOf(service)!.spec.minReplicas).toBeGreaterThanOrEqual(2);
    } else expect(deployment.spec.replicas).toBeGreaterThanOrEqual(2);
    const [container] = deployment.spec.template.spec.containers;
    for (const kind of ["requests", "limits"]) {
      expect(container.resources[kind]).toEqual({ cpu: expect.anything(), memory: expect.anything() });
    }
    expect(container.livenessProbe.httpGet.path).toBe("/health");
    expect(container.readinessProbe.httpGet.path).toBe("/ready");
    // HEALTH_PORT's /health answers before the broker starts, its /started only after; the gateway's
    // HTTP server (and its /health) only exists once its broker started.
    expect(container.startupProbe.httpGet.path).toBe(service === "gateway" ? "/health" : "/started");
    const portName = container.readinessProbe.httpGet.port;
    expect(container.livenessProbe.httpGet.port).toBe(portName);
    expect(container.startupProbe.httpGet.port).toBe(portName);
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

  test("no Secret and no secret value is in the manifests: a Job makes each Secret in the cluster, randomly, only when it is missing", () => {
    expect(ofKind("Secret")).toEqual([]);
    const text = JSON.stringify(all);
    expect(text).not.toMatch(/change-me|changeme|password123/i);
    const job = ofKind("Job").find((j) => j.metadata.name === "docshelf-secrets-init")!;
    const script = job.spec.template.spec.containers[0].command.join("\n");
    for (const [name, keys] of Object.entries(MADE_SECRETS)) {
      expect(script).toContain(`missing ${name}`);
      for (const key of keys) expect(script).toMatch(new RegExp(`--from-literal=${key}="\\$\\(random|--from-literal=${key}="(dsk_|mongodb://)`));
    }
    expect(script).toContain("/dev/urandom");
    // It may create Secrets and read only its own.
    const role = ofKind("Role").find((r) => r.metadata.name === "docshelf-secrets-init")!;
    expect(role.rules).toEqual([
      { apiGroups: [""], resources: ["secrets"], verbs: ["create"] },
      { apiGroups: [""], resources: ["secrets"], resourceNames: Object.keys(MADE_SECRETS), verbs: ["get"] },
    ]);
    expect(ofKind("RoleBinding")[0].subjects).toEqual([{ kind: "ServiceAccount", name: "docshelf-secrets-init", namespace: "docshelf" }]);
    expect(job.spec.template.spec.serviceAccountName).toBe("docshelf-secrets-init");
  });

  test("every Secret a workload reads is one the Job makes, with a key it makes; only identity gets ADMIN_TOKEN", () => {
    for (const { owner, container } of containers()) {
      for (const [name, from] of environment(container)) {
        if (!from.secret) continue;
        expect({ owner, name, key: MADE_SECRETS[from.secret]?.includes(from.key ?? "") }).toEqual({ owner, name, key: true });
      }
    }
    expect(Object.keys(configMap.data)).not.toEqual(expect.arrayContaining(["ADMIN_TOKEN"]));
    expect(Object.keys(configMap.data)).not.toEqual(expect.arrayContaining(["MONGO_URL"]));
    for (const service of ALL_SERVICES) {
      const env = environment(deploymentOf(service)!.spec.template.spec.containers[0]);
      expect({ service, admin: env.get("ADMIN_TOKEN") }).toEqual({ service, admin: service === "identity" ? { secret: "docshelf-secrets", key: "ADMIN_TOKEN" } : undefined });
    }
  });

  test("the gateway is reachable through a Service and an Ingress, and only from the ingress controller; TRUSTED_PROXIES guesses no range", () => {
    const gateway = deploymentOf("gateway")!;
    const service = ofKind("Service").find((s) => s.spec.selector?.["app.kubernetes.io/component"] === "gateway")!;
    expect(service.spec.selector).toEqual(gateway.spec.selector.matchLabels);
    const ingress = ofKind("Ingress")[0];
    expect(ingress.spec.rules[0].http.paths[0].backend.service.name).toBe(service.metadata.name);
    expect(configMap.data.TRUSTED_PROXIES).toBe("");
    const policy = ofKind("NetworkPolicy").find((p) => p.spec.podSelector.matchLabels?.["app.kubernetes.io/component"] === "gateway")!;
    expect(policy.spec.ingress).toEqual([
      { from: [{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "ingress-nginx" } } }], ports: [{ port: "http" }] },
      { ports: [{ port: "metrics" }] },
    ]);
  });

  test("every service keeps a pod through voluntary disruptions; the gateway and content scale on CPU", () => {
    const budgets = ofKind("PodDisruptionBudget").map((b) => b.spec.selector.matchLabels["app.kubernetes.io/component"]);
    expect(budgets).toEqual(expect.arrayContaining([...ALL_SERVICES]));
    expect(ofKind("HorizontalPodAutoscaler").map((h) => h.spec.scaleTargetRef.name).sort()).toEqual(AUTOSCALED.map((s) => deploymentOf(s)!.metadata.name).sort());
    for (const service of AUTOSCALED) {
      const hpa = autoscalerOf(service)!;
      expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);
      expect(hpa.spec.metrics[0].resource).toMatchObject({ name: "cpu", target: { type: "Utilization" } });
    }
  });

  test("content keeps no shared volume: its files' bytes are in MongoDB (GridFS), so there is no ReadWriteMany claim", () => {
    expect(ofKind("PersistentVolumeClaim")).toEqual([]);
    const volumes = deploymentOf("content")!.spec.template.spec.volumes as any[];
    expect(volumes.every((v) => v.emptyDir)).toBe(true);
    for (const set of ofKind("StatefulSet")) for (const claim of set.spec.volumeClaimTemplates) expect(claim.spec.accessModes).toEqual(["ReadWriteOnce"]);
  });

  test("NATS runs JetStream in a StatefulSet and requires the token every docshelf process has", () => {
    const nats = ofKind("StatefulSet").find((s) => s.metadata.name === "nats")!;
    const natsConf = ofKind("ConfigMap").find((m) => m.metadata.name === "nats-config")!.data["nats.conf"];
    expect(natsConf).toMatch(/jetstream\s*{/);
    expect(natsConf).toMatch(/authorization\s*{\s*token:\s*\$NATS_TOKEN\s*}/);
    expect(environment(nats.spec.template.spec.containers[0]).get("NATS_TOKEN")).toEqual({ secret: "docshelf-nats", key: "NATS_TOKEN" });
    expect(nats.spec.volumeClaimTemplates).toHaveLength(1);
    // Every stream and bucket docshelf makes keeps a copy on each server.
    expect(configMap.data.NATS_STREAM_REPLICAS).toBe(String(nats.spec.replicas));
  });

  test("MongoDB runs as a replica set with authentication: a root user, a keyfile between members, and an application user the init Job makes", () => {
    const mongo = ofKind("StatefulSet").find((s) => s.metadata.name === "mongodb")!;
    const [container] = mongo.spec.template.spec.containers;
    expect(container.args).toEqual(expect.arrayContaining(["--replSet", "rs0", "--keyFile", "/keyfile/keyfile"]));
    expect(environment(container).get("MONGO_INITDB_ROOT_PASSWORD")).toEqual({ secret: "mongodb-auth", key: "MONGO_ROOT_PASSWORD" });
    const keyfile = mongo.spec.template.spec.initContainers[0];
    expect(keyfile.command.join(" ")).toContain("install -m 0400 -o 999 -g 999");
    const init = ofKind("Job").find((j) => j.metadata.name === "mongodb-init")!;
    const script = init.spec.template.spec.containers[0].command.join(" ");
    expect(script).toContain("rs.initiate");
    expect(script).toContain('createUser({ user: "docshelf"');
    expect(script).toContain('role: "readWrite", db: "docshelf"');
    const secrets = ofKind("Job").find((j) => j.metadata.name === "docshelf-secrets-init")!.spec.template.spec.containers[0].command.join(" ");
    expect(secrets).toMatch(/MONGO_URL="mongodb:\/\/docshelf:\$\{app\}@\$\{hosts\}\/docshelf\?replicaSet=rs0&authSource=admin"/);
    for (let i = 0; i < mongo.spec.replicas; i++) expect(secrets).toContain(`mongodb-${i}.mongodb:27017`);
  });
});

describe("compose file (deploy/compose.yaml)", () => {
  const compose = parse(readFileSync(join(DEPLOY, "compose.yaml"), "utf8"), { merge: true });

  test("has the same services as the Kubernetes manifests, plus NATS with JetStream and MongoDB as a replica set", () => {
    expect(Object.keys(compose.services).sort()).toEqual([...ALL_SERVICES, "mongodb", "nats"].sort());
    expect(compose.services.nats.command).toContain("-js");
    expect(compose.services.mongodb.command.join(" ")).toContain("mongod --replSet rs0 --bind_ip_all --keyFile /tmp/keyfile");
    // No secret has a default: compose refuses to start without each.
    expect(compose.services.nats.command).toEqual(expect.arrayContaining(["--auth", "${NATS_TOKEN:?set NATS_TOKEN}"]));
    expect(compose.services.mongodb.environment.MONGO_INITDB_ROOT_PASSWORD).toBe("${MONGO_PASSWORD:?set MONGO_PASSWORD}");
    expect(compose.services.identity.environment.ADMIN_TOKEN).toBe("${ADMIN_TOKEN:?set ADMIN_TOKEN}");
    expect(compose.volumes).not.toHaveProperty("content-files");
  });

  test.each([...ALL_SERVICES])("%s runs the one image with SERVICES set to it and only known variables", (service) => {
    const definition = compose.services[service];
    expect(definition.image).toBe(compose.services.gateway.image);
    expect(definition.environment.SERVICES).toBe(service);
    expect(definition.environment.TRANSPORTER).toBe("nats://nats:4222");
    expect(definition.environment.NATS_TOKEN).toBe("${NATS_TOKEN:?set NATS_TOKEN}");
    if (service === "gateway") expect(definition.environment.MONGO_URL).toBeUndefined();
    else expect(definition.environment.MONGO_URL).toBe("mongodb://root:${MONGO_PASSWORD:?set MONGO_PASSWORD}@mongodb:27017/docshelf?replicaSet=rs0&authSource=admin");
    expect(definition.volumes).toBeUndefined();
    expect(Object.keys(definition.environment).filter((name) => !KNOWN.has(name))).toEqual([]);
    expect(definition.healthcheck.test.join(" ")).toContain("/ready");
  });
});
