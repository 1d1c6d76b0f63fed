// Makes the Secrets of a Kubernetes deployment (deploy/k8s/secrets.yaml's Job runs it with the docshelf image
// itself, `node deploy/make-secrets.mjs`): each one only when it is missing, with random values, so applying
// again keeps them and Secrets made beforehand (your own values, a secrets operator) are left alone.
//   mongodb-auth      MONGO_ROOT_PASSWORD, keyfile (replica-set members' internal auth), and MONGO_PASSWORD_<SERVICE>
//                     for each service that keeps data (its own MongoDB user docshelf-<service>)
//   docshelf-nats     NATS_TOKEN
//   docshelf-secrets  ADMIN_TOKEN, MONGO_URL_<SERVICE> (user docshelf-<service> on database docshelf-<service>)
// A Secret that exists but lacks a key (made by an older version) gets that key added; values present are
// never changed.
// It talks to the API server with the pod's service account (its token and CA, NODE_EXTRA_CA_CERTS) and needs
// no kubectl. Environment: POD_NAMESPACE (else the service account's namespace), MONGO_HOSTS (host:port,...),
// MONGO_REPLICA_SET; KUBERNETES_API and KUBERNETES_TOKEN_FILE only to point it elsewhere (tests).
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";

const ACCOUNT = "/var/run/secrets/kubernetes.io/serviceaccount";
const env = process.env;
// The in-cluster address (an IPv6 one in brackets), as client-go builds it.
const host = env.KUBERNETES_SERVICE_HOST?.includes(":") ? `[${env.KUBERNETES_SERVICE_HOST}]` : env.KUBERNETES_SERVICE_HOST;
const api = env.KUBERNETES_API || `https://${host}:${env.KUBERNETES_SERVICE_PORT}`;
const token = readFileSync(env.KUBERNETES_TOKEN_FILE || `${ACCOUNT}/token`, "utf8").trim();
const namespace = env.POD_NAMESPACE || readFileSync(`${ACCOUNT}/namespace`, "utf8").trim();
const mongoHosts = env.MONGO_HOSTS || "mongodb-0.mongodb:27017,mongodb-1.mongodb:27017,mongodb-2.mongodb:27017";
const replicaSet = env.MONGO_REPLICA_SET || "rs0";

/** `length` characters of [A-Za-z0-9] from the system's random source. */
function random(length) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let out = "";
  while (out.length < length) for (const byte of randomBytes(length)) if (byte < 248 && out.length < length) out += alphabet[byte % 62];
  return out;
}

async function call(method, path, body) {
  const res = await fetch(`${api}/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, accept: "application/json", ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** The Secret's data (decoded), or undefined when there is none. */
async function read(name) {
  const res = await call("GET", `/${name}`);
  if (res.status === 404) return undefined;
  if (res.status !== 200) throw new Error(`reading Secret ${name}: HTTP ${res.status} ${res.body?.message ?? ""}`);
  return Object.fromEntries(Object.entries(res.body.data ?? {}).map(([k, v]) => [k, Buffer.from(v, "base64").toString("utf8")]));
}

/** Creates the Secret unless it exists (another run creating it first, 409, counts as made); adds the keys an existing one lacks. */
async function ensure(name, make) {
  const existing = await read(name);
  if (existing) {
    const wanted = await make();
    const missing = Object.fromEntries(Object.entries(wanted).filter(([k]) => !(k in existing)).map(([k, v]) => [k, Buffer.from(v, "utf8").toString("base64")]));
    if (Object.keys(missing).length === 0) {
      console.log(`Secret ${name} exists: left as it is`);
      return;
    }
    const res = await fetch(`${api}/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets/${name}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${token}`, accept: "application/json", "content-type": "application/merge-patch+json" },
      body: JSON.stringify({ data: missing }),
    });
    if (res.status !== 200) throw new Error(`adding ${Object.keys(missing).join(", ")} to Secret ${name}: HTTP ${res.status}`);
    console.log(`Secret ${name}: added ${Object.keys(missing).join(", ")}; the other keys left as they are`);
    return;
  }
  const data = Object.fromEntries(Object.entries(await make()).map(([k, v]) => [k, Buffer.from(v, "utf8").toString("base64")]));
  const res = await call("POST", "", { apiVersion: "v1", kind: "Secret", type: "Opaque", metadata: { name, labels: { "app.kubernetes.io/part-of": "docshelf" } }, data });
  if (res.status === 409) console.log(`Secret ${name} was made meanwhile: left as it is`);
  else if (res.status === 201 || res.status === 200) console.log(`Secret ${name} made`);
  else throw new Error(`creating Secret ${name}: HTTP ${res.status} ${res.body?.message ?? ""}`);
}

/** The services that keep data, each with its own MongoDB user and database (the gateway keeps none). */
const STORE_SERVICES = ["identity", "orgs", "content", "openapi", "comments", "sites", "change-requests", "git-sync", "app"];
const keyOf = (service) => service.toUpperCase().replace(/-/g, "_");

await ensure("mongodb-auth", () => ({
  MONGO_ROOT_PASSWORD: random(40),
  keyfile: random(756),
  ...Object.fromEntries(STORE_SERVICES.map((s) => [`MONGO_PASSWORD_${keyOf(s)}`, random(40)])),
}));
await ensure("docshelf-nats", () => ({ NATS_TOKEN: random(40) }));
await ensure("docshelf-secrets", async () => {
  const auth = await read("mongodb-auth");
  const urls = {};
  for (const service of STORE_SERVICES) {
    const stored = auth?.[`MONGO_PASSWORD_${keyOf(service)}`];
    if (!stored) throw new Error(`Secret mongodb-auth has no MONGO_PASSWORD_${keyOf(service)}`);
    const password = encodeURIComponent(stored);
    urls[`MONGO_URL_${keyOf(service)}`] = `mongodb://docshelf-${service}:${password}@${mongoHosts}/docshelf-${service}?replicaSet=${encodeURIComponent(replicaSet)}&authSource=admin`;
  }
  return { ADMIN_TOKEN: `dsk_${random(43)}`, ...urls };
});
console.log("secrets are in place");
