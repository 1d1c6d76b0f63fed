// The Kubernetes manifests as `kustomize build deploy/k8s` renders them, and the compose file, parsed:
// every service deployed the same way, with the env it needs, secrets made in the cluster, none in here.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
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
  "docshelf-secrets": ["ADMIN_TOKEN", "MONGO_URL_"],
  "docshelf-nats": ["NATS_TOKEN"],
  "mongodb-auth": ["MONGO_ROOT_PASSWORD", "MONGO_PASSWORD_", "keyfile"],
};
/** The Secret key suffix of a service: CHANGE_REQUESTS for change-requests. */
const keyOf = (service: string) => service.toUpperCase().replace(/-/g, "_");
/** Where secrets.yaml's Job finds its program in the docshelf image (deploy/image/assemble.sh puts it there). */
const MAKE_SECRETS = join(DEPLOY, "image", "make-secrets.mjs");
/** Private address ranges: TRUSTED_PROXIES' default behind the cluster's ingress controller. */
const PRIVATE_RANGES = "10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,fc00::/7";
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

function manifests(dir = K8S): Manifest[] {
  const rendered = execFileSync(kustomize(), ["build", dir], { encoding: "utf8" });
  return parseAllDocuments(rendered).map((doc) => {
    if (doc.errors.length) throw new Error(`kustomize output: ${doc.errors[0].message}`);
    return doc.toJS() as Manifest;
  });
}

const all = manifests();
const ofKind = (kind: string) => all.filter((m) => m.kind === kind);
const configMap = ofKind("ConfigMap").find((m) => m.metadata.name.startsWith("docshelf-config-"))!;
const deploymentOf = (service: string) => ofKind("Deployment").find((d) => d.metadata.labels?.["app.kubernetes.io/component"] === service);
const autoscalerOf = (service: string) => ofKind("HorizontalPodAutoscaler").find((h) => h.spec.scaleTargetRef.name === deploymentOf(service)?.metadata.name);

/** Bytes of a Kubernetes quantity (512Mi, 1Gi, 268435456). */
function bytes(quantity: string | number): number {
  const match = /^(\d+)(Ki|Mi|Gi)?$/.exec(String(quantity));
  if (!match) throw new Error(`quantity ${quantity}`);
  return Number(match[1]) * { "": 1, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3 }[match[2] ?? ""]!;
}

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
    const kustomization = parse(readFileSync(join(K8S, "kustomization.yaml"), "utf8"));
    const listed = kustomization.resources as string[];
    const files = readdirSync(K8S).filter((f) => f.endsWith(".yaml") && f !== "kustomization.yaml");
    expect([...listed].sort()).toEqual(files.sort());
    const generated = (kustomization.configMapGenerator as Array<{ envs?: string[]; files?: string[] }>).flatMap((g) => [...(g.envs ?? []), ...(g.files ?? [])]);
    expect(generated.sort()).toEqual(readdirSync(K8S).filter((f) => !f.endsWith(".yaml")).sort());
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
    expect(env.get("MONGO_URL")).toEqual(service === "gateway" ? undefined : { secret: "docshelf-secrets", key: `MONGO_URL_${keyOf(service)}` });
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

  test("no Secret and no secret value is in the manifests: a Job of the docshelf image makes each Secret in the cluster, randomly, only when it is missing", () => {
    expect(ofKind("Secret")).toEqual([]);
    const text = JSON.stringify(all);
    expect(text).not.toMatch(/change-me|changeme|password123/i);
    const job = ofKind("Job").find((j) => j.metadata.name === "docshelf-secrets-init")!;
    const [container] = job.spec.template.spec.containers;
    // The docshelf image itself (the same as every service's), running the program assemble.sh puts in it.
    expect(container.image).toBe(deploymentOf("gateway")!.spec.template.spec.containers[0].image);
    expect(container.command).toEqual(["node", "deploy/make-secrets.mjs"]);
    expect(readFileSync(join(DEPLOY, "image", "assemble.sh"), "utf8")).toContain('cp deploy/image/make-secrets.mjs "${target}/deploy/"');
    const program = readFileSync(MAKE_SECRETS, "utf8");
    for (const [name, keys] of Object.entries(MADE_SECRETS)) {
      expect(program).toMatch(new RegExp(`await ensure\\("${name}", (async )?\\(\\) =>`));
      for (const key of keys) expect(program).toMatch(key.endsWith("_") ? new RegExp(`\`${key}\\$\\{keyOf\\(s(ervice)?\\)\\}\``) : new RegExp(`${key}: `));
    }
    expect(program).toContain("randomBytes");
    expect(environment(container).get("POD_NAMESPACE")).toEqual({ value: "field:metadata.namespace" });
    // It may create Secrets and read only its own.
    const role = ofKind("Role").find((r) => r.metadata.name === "docshelf-secrets-init")!;
    expect(role.rules).toEqual([
      { apiGroups: [""], resources: ["secrets"], verbs: ["create"] },
      { apiGroups: [""], resources: ["secrets"], resourceNames: Object.keys(MADE_SECRETS), verbs: ["get", "patch"] },
    ]);
    expect(ofKind("RoleBinding")[0].subjects).toEqual([{ kind: "ServiceAccount", name: "docshelf-secrets-init", namespace: "docshelf" }]);
    expect(job.spec.template.spec.serviceAccountName).toBe("docshelf-secrets-init");
  });

  test("every image is docshelf's own, NATS' or MongoDB's official one: no third-party helper image", () => {
    const images = new Set(containers().map(({ container }) => container.image as string));
    expect([...images].sort()).toEqual(["mongo:7.0", "nats:2.10-alpine", "registry.example.com/docshelf:0.1.0"]);
  });

  test("the configuration is generated: ConfigMap names carry a hash of their content, so an edit rolls out new pods", () => {
    const generated = ofKind("ConfigMap").map((m) => m.metadata.name);
    expect(generated).toEqual(expect.arrayContaining([expect.stringMatching(/^docshelf-config-[a-z0-9]{10}$/), expect.stringMatching(/^nats-config-[a-z0-9]{10}$/)]));
    for (const deployment of ofKind("Deployment")) {
      expect(deployment.spec.template.spec.containers[0].envFrom).toEqual([{ configMapRef: { name: configMap.metadata.name } }]);
    }
    const nats = ofKind("StatefulSet").find((s) => s.metadata.name === "nats")!;
    expect(nats.spec.template.spec.volumes.find((v: any) => v.name === "config").configMap.name).toMatch(/^nats-config-[a-z0-9]{10}$/);
  });

  test("the storage class of NATS' and MongoDB's volumes is the cluster's default, and the patch kustomization.yaml documents sets it", () => {
    for (const set of ofKind("StatefulSet")) expect(set.spec.volumeClaimTemplates[0].spec.storageClassName).toBeUndefined();
    const text = readFileSync(join(K8S, "kustomization.yaml"), "utf8");
    const block = /# storage-class:start\n([\s\S]*?)# storage-class:end/.exec(text)![1];
    // Uncommented as deploy/README.md says, in a copy of the folder.
    const copy = mkdtempSync(join(tmpdir(), "docshelf-k8s-"));
    try {
      cpSync(K8S, copy, { recursive: true });
      const uncommented = block.replace(/^# ?/gm, "").replace("value: fast-ssd", "value: local-nvme");
      writeFileSync(join(copy, "kustomization.yaml"), text.replace(block, uncommented));
      const sets = manifests(copy).filter((m) => m.kind === "StatefulSet");
      expect(sets.map((set) => [set.metadata.name, set.spec.volumeClaimTemplates[0].spec.storageClassName]).sort()).toEqual([
        ["mongodb", "local-nvme"],
        ["nats", "local-nvme"],
      ]);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  test("NATS servers and MongoDB members prefer nodes of their own", () => {
    for (const name of ["nats", "mongodb"]) {
      const set = ofKind("StatefulSet").find((s) => s.metadata.name === name)!;
      const [term] = set.spec.template.spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution;
      expect(term.podAffinityTerm).toEqual({ topologyKey: "kubernetes.io/hostname", labelSelector: { matchLabels: set.spec.selector.matchLabels } });
    }
  });

  test("git-sync's memory limit holds its fetch limit three times over, plus 256 MiB for the process", () => {
    const [container] = deploymentOf("git-sync")!.spec.template.spec.containers;
    const fetchLimit = Number(environment(container).get("GIT_SYNC_MAX_FETCH_BYTES")?.value);
    expect(fetchLimit).toBeGreaterThan(0);
    expect(bytes(container.resources.limits.memory)).toBeGreaterThanOrEqual(256 * 1024 ** 2 + 3 * fetchLimit);
  });

  test("every Secret a workload reads is one the Job makes, with a key it makes; only identity gets ADMIN_TOKEN", () => {
    for (const { owner, container } of containers()) {
      for (const [name, from] of environment(container)) {
        if (!from.secret) continue;
        // A key of the Secret, or (MONGO_URL_…, MONGO_PASSWORD_…) one per service that keeps data.
        const made = MADE_SECRETS[from.secret] ?? [];
        const known = made.includes(from.key ?? "") || made.some((k) => k.endsWith("_") && ALL_SERVICES.some((s) => s !== "gateway" && from.key === `${k}${keyOf(s)}`));
        expect({ owner, name, key: known }).toEqual({ owner, name, key: true });
      }
    }
    expect(Object.keys(configMap.data)).not.toEqual(expect.arrayContaining(["ADMIN_TOKEN"]));
    expect(Object.keys(configMap.data)).not.toEqual(expect.arrayContaining(["MONGO_URL"]));
    for (const service of ALL_SERVICES) {
      const env = environment(deploymentOf(service)!.spec.template.spec.containers[0]);
      expect({ service, admin: env.get("ADMIN_TOKEN") }).toEqual({ service, admin: service === "identity" ? { secret: "docshelf-secrets", key: "ADMIN_TOKEN" } : undefined });
    }
  });

  test("the gateway is reachable through a Service and an Ingress, and only from the ingress controller, whose private range TRUSTED_PROXIES believes", () => {
    const gateway = deploymentOf("gateway")!;
    const service = ofKind("Service").find((s) => s.spec.selector?.["app.kubernetes.io/component"] === "gateway")!;
    expect(service.spec.selector).toEqual(gateway.spec.selector.matchLabels);
    const ingress = ofKind("Ingress")[0];
    expect(ingress.spec.rules[0].http.paths[0].backend.service.name).toBe(service.metadata.name);
    expect(configMap.data.TRUSTED_PROXIES).toBe(PRIVATE_RANGES);
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
    const natsConf = ofKind("ConfigMap").find((m) => m.metadata.name.startsWith("nats-config-"))!.data["nats.conf"];
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
    // A user per service that keeps data, readWrite on its own database only.
    const stores = ALL_SERVICES.filter((s) => s !== "gateway");
    const initEnv = environment(init.spec.template.spec.containers[0]);
    expect(initEnv.get("STORE_SERVICES")?.value?.split(" ").sort()).toEqual([...stores].sort());
    for (const service of stores) expect(initEnv.get(`MONGO_PASSWORD_${keyOf(service)}`)).toEqual({ secret: "mongodb-auth", key: `MONGO_PASSWORD_${keyOf(service)}` });
    expect(script).toContain("const roles = [{ role: \"readWrite\", db: `docshelf-${service}` }];");
    expect(script).not.toMatch(/role: "(root|readWriteAnyDatabase|dbAdmin|userAdmin)/);
    // Each MONGO_URL_<SERVICE>, as the secrets Job writes it: that service's user and database, every member, the replica set.
    const secrets = environment(ofKind("Job").find((j) => j.metadata.name === "docshelf-secrets-init")!.spec.template.spec.containers[0]);
    const program = readFileSync(MAKE_SECRETS, "utf8");
    expect(program).toContain("`mongodb://docshelf-${service}:${password}@${mongoHosts}/docshelf-${service}?replicaSet=${encodeURIComponent(replicaSet)}&authSource=admin`");
    expect(program).toContain(`const STORE_SERVICES = ${JSON.stringify(stores).replace(/,/g, ", ")};`);
    expect(secrets.get("MONGO_HOSTS")?.value).toBe(Array.from({ length: mongo.spec.replicas }, (_, i) => `mongodb-${i}.mongodb:27017`).join(","));
    expect(secrets.get("MONGO_REPLICA_SET")?.value).toBe(container.args[container.args.indexOf("--replSet") + 1]);
  });
});

describe("compose file (deploy/compose.yaml)", () => {
  const compose = parse(readFileSync(join(DEPLOY, "compose.yaml"), "utf8"), { merge: true });
  const scaled = Object.keys(compose.services).filter((name) => compose.services[name].profiles?.includes("scaled"));
  const users = compose.services["mongodb-users"];
  /** service -> uid, as mongodb-users makes each service's credentials file. */
  const uids = new Map<string, string>((users.environment.DOCSHELF_SERVICES as string).split(" ").map((entry) => entry.split(":") as [string, string]));

  test("by default one container runs every service on the embedded store, its data in one volume", () => {
    const always = Object.keys(compose.services).filter((name) => !compose.services[name].profiles);
    expect(always).toEqual(["docshelf"]);
    const docshelf = compose.services.docshelf;
    expect(docshelf.environment.SERVICES).toBe("all");
    expect(docshelf.environment.TRANSPORTER).toBeUndefined();
    expect(docshelf.environment.MONGO_URL).toBeUndefined();
    expect(docshelf.volumes).toEqual(["docshelf-data:/data"]);
    expect(docshelf.environment.DATA_DIR).toBe("/data");
    expect(docshelf.ports).toEqual(["${DOCSHELF_PORT:-8080}:8080"]);
    expect(docshelf.build).toEqual({ context: "..", dockerfile: "deploy/Dockerfile" });
    // No default administrator token: compose refuses to start without one.
    expect(docshelf.environment.ADMIN_TOKEN).toMatch(/^\$\{ADMIN_TOKEN:\?/);
    expect(Object.keys(docshelf.environment).filter((name) => !KNOWN.has(name))).toEqual([]);
    expect(docshelf.healthcheck.test.join(" ")).toContain("/ready");
  });

  test("the scaled profile has the Kubernetes manifests' services, NATS with JetStream, MongoDB as a replica set and the per-service users' maker", () => {
    expect([...scaled].sort()).toEqual([...ALL_SERVICES, "mongodb", "mongodb-users", "nats"].sort());
    expect(compose.services.nats.command.join(" ")).toContain("nats-server -js");
    expect(compose.services.mongodb.command.join(" ")).toContain("mongod --replSet rs0 --bind_ip_all --keyFile /tmp/keyfile");
    // Compose reads every profile's variables even when they are not active, so the scaled profile's secrets
    // have no :? (a plain `up` would ask for them); the containers refuse to start without them instead.
    expect(compose.services.nats.environment.NATS_TOKEN).toBe("${NATS_TOKEN:-}");
    expect(compose.services.nats.command.join(" ")).toMatch(/\[ -n "\$\$NATS_TOKEN" \] \|\| \{[^}]*exit 1; \}/);
    expect(compose.services.nats.command.join(" ")).toContain('--auth "$$NATS_TOKEN"');
    expect(compose.services.mongodb.environment.MONGO_INITDB_ROOT_PASSWORD).toBe("${MONGO_PASSWORD:-}");
    expect(compose.services.mongodb.command.join(" ")).toMatch(/\[ -n "\$\$MONGO_INITDB_ROOT_PASSWORD" \] \|\| \{[^}]*exit 1; \}/);
    expect(users.command.join(" ")).toMatch(/\[ -n "\$\$MONGO_ROOT_PASSWORD" \] \|\| \{[^}]*exit 1; \}/);
    expect(compose.services.identity.environment.ADMIN_TOKEN).toMatch(/^\$\{ADMIN_TOKEN:\?/);
    expect(compose.volumes).not.toHaveProperty("content-files");
  });

  test.each([...ALL_SERVICES])("scaled: %s runs the one image with SERVICES set to it and only known variables", (service) => {
    const definition = compose.services[service];
    expect(definition.image).toBe(compose.services.docshelf.image);
    expect(definition.environment.SERVICES).toBe(service);
    expect(definition.environment.TRANSPORTER).toBe("nats://nats:4222");
    expect(definition.environment.NATS_TOKEN).toBe("${NATS_TOKEN:-}");
    expect(definition.environment.MONGO_URL).toBeUndefined();
    expect(definition.depends_on.nats).toEqual({ condition: "service_healthy" });
    expect(Object.keys(definition.environment).filter((name) => !KNOWN.has(name))).toEqual([]);
    expect(definition.healthcheck.test.join(" ")).toContain("/ready");
  });

  test.each(ALL_SERVICES.filter((s) => s !== "gateway"))("scaled: %s reads its own MongoDB user's connection string, as a uid no other service has", (service) => {
    const definition = compose.services[service];
    expect(definition.command.join(" ")).toContain('MONGO_URL="$$(cat "/run/docshelf/$$SERVICES/mongo-url")"; export MONGO_URL; exec node packages/server/dist/main.js');
    expect(definition.volumes).toEqual(["mongodb-users:/run/docshelf:ro"]);
    expect(definition.depends_on["mongodb-users"]).toEqual({ condition: "service_completed_successfully" });
    expect(definition.user).toBe(`${uids.get(service)}:${uids.get(service)}`);
    const others = Object.keys(compose.services).filter((name) => name !== service && compose.services[name].user);
    expect(others.map((name) => compose.services[name].user)).not.toContain(definition.user);
  });

  test("scaled: the gateway has no MongoDB user; mongodb-users makes one per other service, readWrite on its own database only, readable by its uid alone", () => {
    expect(compose.services.gateway.volumes).toBeUndefined();
    expect(compose.services.gateway.command).toBeUndefined();
    expect([...uids.keys()].sort()).toEqual(ALL_SERVICES.filter((s) => s !== "gateway").sort());
    const script = users.command.join("\n");
    expect(script).toContain('const roles = [{ role: "readWrite", db: env.DB_NAME }];');
    expect(script).toContain('USER_NAME="docshelf-$$service" DB_NAME="docshelf-$$service"');
    expect(script).toContain('chown -R "$$uid:$$uid" "$$dir" && chmod 0500 "$$dir" && chmod 0400 "$$dir/mongo-url"');
    expect(script).toContain("mongodb://docshelf-%s:%s@mongodb:27017/docshelf-%s?replicaSet=rs0&authSource=admin");
    // Nothing but mongodb-users (and the server itself) knows the root password.
    const withRoot = Object.keys(compose.services).filter((name) => JSON.stringify(compose.services[name]).includes("MONGO_PASSWORD"));
    expect(withRoot.sort()).toEqual(["mongodb", "mongodb-users"]);
  });
});
