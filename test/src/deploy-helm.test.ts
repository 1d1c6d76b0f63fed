// The Helm chart deploy/helm/docshelf as `helm lint` and `helm template` see it, in both modes: the embedded
// default (one Deployment on a PersistentVolumeClaim) and the scaled mode (a Deployment per service, NATS and
// MongoDB bundled or external), with the options users set (existingSecret, Ingress, HTTPRoute, ServiceMonitor).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { parseAllDocuments, parse } from "yaml";
import { ALL_SERVICES, VARIABLES } from "@docshelf/config";

const ROOT = join(__dirname, "..", "..");
const CHART = join(ROOT, "deploy", "helm", "docshelf");
const KNOWN = new Set(VARIABLES.map((v) => v.name));
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: any;
}

/** helm: HELM, else on PATH, else where `go install` puts it (scripts/helm.sh builds it there). */
function helm(): string {
  if (process.env.HELM) return process.env.HELM;
  for (const dir of (process.env.PATH ?? "").split(":")) if (dir && existsSync(join(dir, "helm"))) return join(dir, "helm");
  const fromGo = join(process.env.GOPATH || join(homedir(), "go"), "bin", "helm");
  if (existsSync(fromGo)) return fromGo;
  throw new Error("helm is not installed: scripts/helm.sh builds it with Go (or set HELM)");
}

const sets = (values: Record<string, string>) => Object.entries(values).flatMap(([k, v]) => ["--set", `${k}=${v}`]);

function render(values: Record<string, string> = {}): Manifest[] {
  const text = execFileSync(helm(), ["template", "docs", CHART, "--namespace", "docs", ...sets(values)], { encoding: "utf8" });
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length) throw new Error(`helm template output: ${doc.errors[0].message}`);
      return doc.toJS() as Manifest | null;
    })
    .filter((m): m is Manifest => m !== null);
}

const ofKind = (objects: Manifest[], kind: string) => objects.filter((m) => m.kind === kind);
const named = (objects: Manifest[], kind: string, name: string) => objects.find((m) => m.kind === kind && m.metadata.name === name);

/** A container's environment: name -> literal value, or the Secret key it comes from. */
function environment(objects: Manifest[], container: any): Map<string, { value?: string; secret?: string; key?: string; configMap?: string }> {
  const env = new Map<string, { value?: string; secret?: string; key?: string; configMap?: string }>();
  for (const from of container.envFrom ?? []) {
    const map = named(objects, "ConfigMap", from.configMapRef?.name);
    if (!map) throw new Error(`envFrom names a missing ConfigMap: ${from.configMapRef?.name}`);
    for (const [key, value] of Object.entries(map.data ?? {})) env.set(key, { configMap: map.metadata.name, value: String(value) });
  }
  for (const e of container.env ?? []) {
    if (e.valueFrom?.secretKeyRef) env.set(e.name, { secret: e.valueFrom.secretKeyRef.name, key: e.valueFrom.secretKeyRef.key });
    else if (e.valueFrom?.fieldRef) env.set(e.name, { value: `field:${e.valueFrom.fieldRef.fieldPath}` });
    else env.set(e.name, { value: e.value });
  }
  return env;
}

function workloadContainers(objects: Manifest[]): Array<{ owner: string; container: any }> {
  return objects
    .filter((m) => ["Deployment", "StatefulSet", "Job"].includes(m.kind))
    .flatMap((m) => [...(m.spec.template.spec.initContainers ?? []), ...m.spec.template.spec.containers].map((container: any) => ({ owner: `${m.kind}/${m.metadata.name}`, container })));
}

const secretData = (secret: Manifest) => Object.fromEntries(Object.entries(secret.data as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, "base64").toString("utf8")]));

describe("Helm chart (deploy/helm/docshelf)", () => {
  test("helm lint passes in both modes, and the chart's version is docshelf's", () => {
    for (const mode of ["embedded", "scaled"]) {
      const lint = spawnSync(helm(), ["lint", CHART, "--strict", "--set", `mode=${mode}`], { encoding: "utf8" });
      expect({ mode, status: lint.status, output: lint.status === 0 ? "" : lint.stdout + lint.stderr }).toEqual({ mode, status: 0, output: "" });
    }
    const chart = parse(readFileSync(join(CHART, "Chart.yaml"), "utf8"));
    expect({ version: chart.version, appVersion: chart.appVersion }).toEqual({ version: VERSION, appVersion: VERSION });
  });

  test("a setting that cannot work is refused at render time, naming it", () => {
    for (const [values, message] of [
      [{ mode: "cluster" }, "mode must be embedded or scaled"],
      [{ podAntiAffinity: "sometimes" }, "podAntiAffinity must be soft or hard"],
      [{ mode: "scaled", "nats.bundled": "false" }, "nats.url is required"],
      [{ mode: "scaled", "mongodb.bundled": "false" }, "mongodb.url (or existingSecret with MONGO_URL) is required"],
      [{ "httpRoute.enabled": "true" }, "httpRoute.parentRefs"],
    ] as Array<[Record<string, string>, string]>) {
      const run = spawnSync(helm(), ["template", "docs", CHART, ...sets(values)], { encoding: "utf8" });
      expect({ values, status: run.status, names: run.stderr.includes(message) }).toEqual({ values, status: 1, names: true });
    }
  });

  describe("embedded mode (the default)", () => {
    const objects = render();
    const deployments = ofKind(objects, "Deployment");

    test("one Deployment of one replica runs every service on the embedded store, its data on a PersistentVolumeClaim", () => {
      expect(deployments).toHaveLength(1);
      const [deployment] = deployments;
      expect(deployment.spec.replicas).toBe(1);
      // The store locks its directory: the old pod stops before the new one starts.
      expect(deployment.spec.strategy).toEqual({ type: "Recreate" });
      const [container] = deployment.spec.template.spec.containers;
      expect(container.image).toBe(`registry.example.com/docshelf:${VERSION}`);
      const env = environment(objects, container);
      expect(env.get("SERVICES")).toEqual({ value: "all" });
      expect(env.get("DATA_DIR")).toEqual({ value: "/data" });
      expect(env.has("TRANSPORTER")).toBe(false);
      expect(env.has("MONGO_URL")).toBe(false);
      expect(env.get("ADMIN_TOKEN")).toEqual({ secret: "docs-docshelf", key: "ADMIN_TOKEN" });
      expect([...env.keys()].filter((name) => !KNOWN.has(name))).toEqual([]);
      const [claim] = ofKind(objects, "PersistentVolumeClaim");
      expect(claim.spec).toEqual({ accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "10Gi" } } });
      expect(claim.metadata.annotations?.["helm.sh/resource-policy"]).toBe("keep");
      const data = deployment.spec.template.spec.volumes.find((v: any) => v.name === "data");
      expect(data.persistentVolumeClaim.claimName).toBe(claim.metadata.name);
      expect(container.volumeMounts).toEqual(expect.arrayContaining([{ name: "data", mountPath: "/data" }]));
      for (const absent of ["StatefulSet", "Job", "Ingress", "HTTPRoute", "ServiceMonitor"]) expect({ absent, found: ofKind(objects, absent).length }).toEqual({ absent, found: 0 });
    });

    test("probes, resources, a non-root read-only container, and the Service on the gateway's port", () => {
      const [deployment] = deployments;
      const [container] = deployment.spec.template.spec.containers;
      expect(container.startupProbe.httpGet).toEqual({ path: "/health", port: "http" });
      expect(container.livenessProbe.httpGet).toEqual({ path: "/health", port: "http" });
      expect(container.readinessProbe.httpGet).toEqual({ path: "/ready", port: "http" });
      expect(container.ports).toEqual(expect.arrayContaining([{ name: "http", containerPort: 8080 }, { name: "metrics", containerPort: 9100 }]));
      expect(Object.keys(container.resources).sort()).toEqual(["limits", "requests"]);
      expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
      expect(deployment.spec.template.spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      const service = named(objects, "Service", "docs-docshelf")!;
      expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels);
      expect(service.spec.ports).toEqual([{ name: "http", port: 80, targetPort: "http" }]);
    });

    test("the chart makes the administrator token, random, kept on uninstall; TRUSTED_PROXIES believes the private ranges", () => {
      const secret = named(objects, "Secret", "docs-docshelf")!;
      expect(Object.keys(secret.data)).toEqual(["ADMIN_TOKEN"]);
      expect(secretData(secret).ADMIN_TOKEN).toMatch(/^dsk_[A-Za-z0-9]{43}$/);
      expect(secretData(secret).ADMIN_TOKEN).not.toBe(secretData(named(render(), "Secret", "docs-docshelf")!).ADMIN_TOKEN);
      expect(secret.metadata.annotations?.["helm.sh/resource-policy"]).toBe("keep");
      const config = named(objects, "ConfigMap", "docs-docshelf")!;
      expect(config.data.TRUSTED_PROXIES).toBe("10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,fc00::/7");
      expect(config.data.PUBLIC_URL).toBe("https://docs.example.com");
    });

    test("persistence: a storage class, an existing claim, or none", () => {
      expect(ofKind(render({ "embedded.persistence.storageClass": "fast" }), "PersistentVolumeClaim")[0].spec.storageClassName).toBe("fast");
      const existing = render({ "embedded.persistence.existingClaim": "mine" });
      expect(ofKind(existing, "PersistentVolumeClaim")).toEqual([]);
      expect(ofKind(existing, "Deployment")[0].spec.template.spec.volumes.find((v: any) => v.name === "data").persistentVolumeClaim.claimName).toBe("mine");
      const none = render({ "embedded.persistence.enabled": "false" });
      expect(ofKind(none, "PersistentVolumeClaim")).toEqual([]);
      expect(ofKind(none, "Deployment")[0].spec.template.spec.volumes.find((v: any) => v.name === "data")).toEqual({ name: "data", emptyDir: {} });
    });

    test("existingSecret: the chart makes no Secret and every workload reads the one named", () => {
      const objects = render({ existingSecret: "my-docshelf" });
      expect(ofKind(objects, "Secret")).toEqual([]);
      const env = environment(objects, ofKind(objects, "Deployment")[0].spec.template.spec.containers[0]);
      expect(env.get("ADMIN_TOKEN")).toEqual({ secret: "my-docshelf", key: "ADMIN_TOKEN" });
    });

    test("an Ingress, a Gateway API HTTPRoute and a ServiceMonitor, each to the API's Service", () => {
      const objects = render({
        "ingress.enabled": "true",
        "ingress.className": "nginx",
        "ingress.host": "docs.acme.test",
        "ingress.tlsSecretName": "docs-tls",
        "httpRoute.enabled": "true",
        "httpRoute.parentRefs[0].name": "public",
        "httpRoute.parentRefs[0].namespace": "gateway-system",
        "metrics.serviceMonitor.enabled": "true",
        "metrics.serviceMonitor.labels.release": "prometheus",
      });
      const ingress = ofKind(objects, "Ingress")[0];
      expect(ingress.spec).toEqual({
        ingressClassName: "nginx",
        tls: [{ hosts: ["docs.acme.test"], secretName: "docs-tls" }],
        rules: [{ host: "docs.acme.test", http: { paths: [{ path: "/", pathType: "Prefix", backend: { service: { name: "docs-docshelf", port: { name: "http" } } } }] } }],
      });
      const route = ofKind(objects, "HTTPRoute")[0];
      expect(route.apiVersion).toBe("gateway.networking.k8s.io/v1");
      expect(route.spec).toEqual({
        parentRefs: [{ name: "public", namespace: "gateway-system" }],
        hostnames: ["docs.acme.test"],
        rules: [{ matches: [{ path: { type: "PathPrefix", value: "/" } }], backendRefs: [{ name: "docs-docshelf", port: 80 }] }],
      });
      const monitor = ofKind(objects, "ServiceMonitor")[0];
      expect(monitor.metadata.labels?.release).toBe("prometheus");
      expect(monitor.spec.endpoints).toEqual([{ port: "metrics", path: "/metrics", interval: "30s" }]);
      const metrics = ofKind(objects, "Service").find((s) => Object.entries(monitor.spec.selector.matchLabels).every(([k, v]) => s.metadata.labels?.[k] === v))!;
      expect(metrics.spec.ports).toEqual([{ name: "metrics", port: 9100, targetPort: "metrics" }]);
      // It selects every docshelf pod of the release: here the one Deployment's.
      const pod = ofKind(objects, "Deployment")[0].spec.template.metadata.labels;
      expect(Object.entries(metrics.spec.selector).every(([k, v]) => pod[k] === v)).toBe(true);
    });
  });

  describe("scaled mode", () => {
    const objects = render({ mode: "scaled" });
    const deploymentOf = (service: string) => ofKind(objects, "Deployment").find((d) => d.metadata.labels?.["app.kubernetes.io/component"] === service);

    test.each([...ALL_SERVICES])("%s: a Deployment of the one image running only it, with its secrets and nothing more, spread over nodes", (service) => {
      const deployment = deploymentOf(service)!;
      expect(deployment.spec.replicas).toBeGreaterThanOrEqual(2);
      const [container] = deployment.spec.template.spec.containers;
      expect(container.image).toBe(`registry.example.com/docshelf:${VERSION}`);
      const env = environment(objects, container);
      expect(env.get("SERVICES")).toEqual({ value: service });
      expect(env.get("TRANSPORTER")?.value).toBe("nats://docs-docshelf-nats:4222");
      expect(env.get("NATS_TOKEN")).toEqual({ secret: "docs-docshelf", key: "NATS_TOKEN" });
      // Its own MongoDB user and database (the bundled MongoDB): the password from the Secret, put into the URL by Kubernetes.
      const key = `MONGO_PASSWORD_${service.toUpperCase().replace(/-/g, "_")}`;
      const hosts = [0, 1, 2].map((i) => `docs-docshelf-mongodb-${i}.docs-docshelf-mongodb:27017`).join(",");
      expect(env.get("MONGO_PASSWORD")).toEqual(service === "gateway" ? undefined : { secret: "docs-docshelf", key });
      expect(env.get("MONGO_URL")).toEqual(
        service === "gateway" ? undefined : { value: `mongodb://docshelf-${service}:$(MONGO_PASSWORD)@${hosts}/docshelf-${service}?replicaSet=rs0&authSource=admin` },
      );
      if (service !== "gateway") {
        const names = container.env.map((e: { name: string }) => e.name);
        expect(names.indexOf("MONGO_PASSWORD")).toBeLessThan(names.indexOf("MONGO_URL")); // $(VAR) sees only earlier variables
      }
      expect(env.get("ADMIN_TOKEN")).toEqual(service === "identity" ? { secret: "docs-docshelf", key: "ADMIN_TOKEN" } : undefined);
      expect(env.get("SMTP_URL")).toEqual(service === "identity" ? { secret: "docs-docshelf", key: "SMTP_URL" } : undefined);
      expect([...env.keys()].filter((name) => !KNOWN.has(name) && name !== "MONGO_PASSWORD")).toEqual([]);
      const port = service === "gateway" ? "http" : "health";
      expect(container.startupProbe.httpGet).toEqual({ path: service === "gateway" ? "/health" : "/started", port });
      expect(container.readinessProbe.httpGet).toEqual({ path: "/ready", port });
      expect(String(container.ports.find((p: any) => p.name === port).containerPort)).toBe(service === "gateway" ? env.get("PORT")?.value : env.get("HEALTH_PORT")?.value);
      expect(Object.keys(container.resources).sort()).toEqual(["limits", "requests"]);
      const [term] = deployment.spec.template.spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution;
      expect(term.podAffinityTerm.labelSelector.matchLabels).toEqual(deployment.spec.selector.matchLabels);
      const budget = ofKind(objects, "PodDisruptionBudget").find((b) => b.spec.selector.matchLabels["app.kubernetes.io/component"] === service)!;
      expect(budget.spec.minAvailable).toBe(1);
    });

    test("the API's Service selects the gateway; git-sync's memory limit holds its fetch limit three times over plus 256 MiB", () => {
      expect(named(objects, "Service", "docs-docshelf")!.spec.selector).toEqual(deploymentOf("gateway")!.spec.selector.matchLabels);
      const [container] = deploymentOf("git-sync")!.spec.template.spec.containers;
      const fetchLimit = Number(environment(objects, container).get("GIT_SYNC_MAX_FETCH_BYTES")?.value);
      expect(fetchLimit).toBeGreaterThan(0);
      const limit = /^(\d+)Gi$/.exec(container.resources.limits.memory)!;
      expect(Number(limit[1]) * 1024 ** 3).toBeGreaterThanOrEqual(256 * 1024 ** 2 + 3 * fetchLimit);
    });

    test("bundled NATS and MongoDB: StatefulSets with anti-affinity and the storage class given, a replica set with a user per service", () => {
      const withClass = render({ mode: "scaled", "nats.storage.storageClass": "fast", "mongodb.storage.storageClass": "fast", podAntiAffinity: "hard" });
      for (const name of ["docs-docshelf-nats", "docs-docshelf-mongodb"]) {
        const set = named(withClass, "StatefulSet", name)!;
        expect(set.spec.replicas).toBe(3);
        expect(set.spec.volumeClaimTemplates[0].spec.storageClassName).toBe("fast");
        const [term] = set.spec.template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution;
        expect(term).toEqual({ topologyKey: "kubernetes.io/hostname", labelSelector: { matchLabels: set.spec.selector.matchLabels } });
      }
      const natsConf = named(objects, "ConfigMap", "docs-docshelf-nats")!.data["nats.conf"];
      expect(natsConf).toMatch(/authorization\s*{\s*token:\s*\$NATS_TOKEN\s*}/);
      for (let i = 0; i < 3; i++) expect(natsConf).toContain(`nats://docs-docshelf-nats-${i}.docs-docshelf-nats-headless:6222`);
      expect(named(objects, "ConfigMap", "docs-docshelf")!.data.NATS_STREAM_REPLICAS).toBe("3");
      const secret = secretData(named(objects, "Secret", "docs-docshelf")!);
      const stores = ALL_SERVICES.filter((s) => s !== "gateway");
      const passwordKeys = stores.map((s) => `MONGO_PASSWORD_${s.toUpperCase().replace(/-/g, "_")}`);
      expect(Object.keys(secret).sort()).toEqual(["ADMIN_TOKEN", "MONGO_ROOT_PASSWORD", "NATS_TOKEN", "keyfile", ...passwordKeys].sort());
      for (const key of passwordKeys) expect(secret[key]).toMatch(/^[A-Za-z0-9]{40}$/);
      expect(new Set(passwordKeys.map((k) => secret[k])).size).toBe(passwordKeys.length);
      const hosts = [0, 1, 2].map((i) => `docs-docshelf-mongodb-${i}.docs-docshelf-mongodb:27017`).join(",");
      expect(secret.keyfile).toMatch(/^[A-Za-z0-9]{756}$/);
      const init = named(objects, "Job", "docs-docshelf-mongodb-init")!;
      expect(init.metadata.annotations?.["helm.sh/hook"]).toBe("post-install,post-upgrade");
      const [job] = init.spec.template.spec.containers;
      const jobEnv = environment(objects, job);
      expect(jobEnv.get("MEMBERS")).toEqual({ value: hosts });
      // The Job makes docshelf-<service> with readWrite on docshelf-<service> only, for every service that stores.
      expect(jobEnv.get("STORE_SERVICES")?.value?.split(" ").sort()).toEqual([...stores].sort());
      for (const key of passwordKeys) expect(jobEnv.get(key)).toEqual({ secret: "docs-docshelf", key });
      const script = job.command.join(" ");
      expect(script).toContain("const roles = [{ role: \"readWrite\", db: `docshelf-${service}` }];");
      expect(script).toContain("admin.updateUser(user, { pwd: process.env[key], roles })");
      expect(script).not.toMatch(/role: "(root|readWriteAnyDatabase|dbAdmin|userAdmin)/);
      for (const { owner, container } of workloadContainers(objects)) expect({ owner, resources: Object.keys(container.resources ?? {}).sort() }).toEqual({ owner, resources: ["limits", "requests"] });
    });

    test("external NATS and MongoDB: no StatefulSet, the URLs given, MONGO_URL from existingSecret", () => {
      const objects = render({ mode: "scaled", "nats.bundled": "false", "nats.url": "nats://nats.infra:4222", "mongodb.bundled": "false", existingSecret: "ours" });
      expect(ofKind(objects, "StatefulSet")).toEqual([]);
      expect(ofKind(objects, "Job")).toEqual([]);
      expect(ofKind(objects, "Secret")).toEqual([]);
      const env = environment(objects, ofKind(objects, "Deployment").find((d) => d.metadata.labels?.["app.kubernetes.io/component"] === "content")!.spec.template.spec.containers[0]);
      expect(env.get("TRANSPORTER")?.value).toBe("nats://nats.infra:4222");
      expect(env.get("MONGO_URL")).toEqual({ secret: "ours", key: "MONGO_URL" });
      // Without existingSecret the URL given goes into the chart's Secret.
      const made = secretData(named(render({ mode: "scaled", "mongodb.bundled": "false", "mongodb.url": "mongodb://db.infra/docshelf" }), "Secret", "docs-docshelf")!);
      expect(made.MONGO_URL).toBe("mongodb://db.infra/docshelf");
      expect(made).not.toHaveProperty("MONGO_ROOT_PASSWORD");
      expect(Object.keys(made).filter((k) => k.startsWith("MONGO_PASSWORD_"))).toEqual([]);
    });

    test("mail: SMTP_URL from the Secret (mail.smtpUrl, or existingSecret's optional key), MAIL_FROM in the ConfigMap", () => {
      const withMail = render({ mode: "scaled", "mail.smtpUrl": "smtp://mailer:s3cret@smtp.example.com:587", "mail.from": "docs@example.com" });
      expect(secretData(named(withMail, "Secret", "docs-docshelf")!).SMTP_URL).toBe("smtp://mailer:s3cret@smtp.example.com:587");
      expect(named(withMail, "ConfigMap", "docs-docshelf")!.data.MAIL_FROM).toBe("docs@example.com");
      expect(JSON.stringify(ofKind(withMail, "ConfigMap"))).not.toContain("s3cret");
      const identity = ofKind(withMail, "Deployment").find((d) => d.metadata.labels?.["app.kubernetes.io/component"] === "identity")!;
      const ref = identity.spec.template.spec.containers[0].env.find((e: { name: string }) => e.name === "SMTP_URL");
      expect(ref.valueFrom.secretKeyRef).toEqual({ name: "docs-docshelf", key: "SMTP_URL", optional: true });
      // Without mail values: no key, no MAIL_FROM; the optional reference leaves SMTP_URL unset.
      expect(secretData(named(objects, "Secret", "docs-docshelf")!)).not.toHaveProperty("SMTP_URL");
      expect(named(objects, "ConfigMap", "docs-docshelf")!.data).not.toHaveProperty("MAIL_FROM");
      const embedded = render({ existingSecret: "ours" });
      const container = ofKind(embedded, "Deployment")[0].spec.template.spec.containers[0];
      expect(container.env.find((e: { name: string }) => e.name === "SMTP_URL").valueFrom.secretKeyRef).toEqual({ name: "ours", key: "SMTP_URL", optional: true });
    });
  });
});
