// Makes the Secrets of a Kubernetes deployment (deploy/k8s/secrets.yaml's Job runs it with the docshelf image
// itself, `node deploy/make-secrets.mjs`): each one only when it is missing, with random values, so applying
// again keeps them and Secrets made beforehand (your own values, a secrets operator) are left alone.
//   mongodb-auth      MONGO_ROOT_PASSWORD, MONGO_APP_PASSWORD, keyfile (replica-set members' internal auth)
//   docshelf-nats     NATS_TOKEN
//   docshelf-secrets  ADMIN_TOKEN, MONGO_URL (the application user `docshelf`, with mongodb-auth's password)
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

/** Creates the Secret unless it exists; another run creating it first (409) counts as made. */
async function ensure(name, make) {
  if (await read(name)) {
    console.log(`Secret ${name} exists: left as it is`);
    return;
  }
  const data = Object.fromEntries(Object.entries(await make()).map(([k, v]) => [k, Buffer.from(v, "utf8").toString("base64")]));
  const res = await call("POST", "", { apiVersion: "v1", kind: "Secret", type: "Opaque", metadata: { name, labels: { "app.kubernetes.io/part-of": "docshelf" } }, data });
  if (res.status === 409) console.log(`Secret ${name} was made meanwhile: left as it is`);
  else if (res.status === 201 || res.status === 200) console.log(`Secret ${name} made`);
  else throw new Error(`creating Secret ${name}: HTTP ${res.status} ${res.body?.message ?? ""}`);
}

await ensure("mongodb-auth", () => ({ MONGO_ROOT_PASSWORD: random(40), MONGO_APP_PASSWORD: random(40), keyfile: random(756) }));
await ensure("docshelf-nats", () => ({ NATS_TOKEN: random(40) }));
await ensure("docshelf-secrets", async () => {
  const auth = await read("mongodb-auth");
  if (!auth?.MONGO_APP_PASSWORD) throw new Error("Secret mongodb-auth has no MONGO_APP_PASSWORD");
  const password = encodeURIComponent(auth.MONGO_APP_PASSWORD);
  return {
    ADMIN_TOKEN: `dsk_${random(43)}`,
    MONGO_URL: `mongodb://docshelf:${password}@${mongoHosts}/docshelf?replicaSet=${encodeURIComponent(replicaSet)}&authSource=admin`,
  };
});
console.log("secrets are in place");
