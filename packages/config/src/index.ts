// The one configuration module: every environment variable the project reads, its default and why.
import { accessSync, constants } from "node:fs";
import { isIP } from "node:net";
import { availableParallelism } from "node:os";

export interface Config {
  /** HTTP port of the gateway. */
  port: number;
  /** Interface the gateway binds to. */
  host: string;
  /** Absolute base of every `urls.*` member in responses. */
  publicUrl: string;
  /** Where the embedded store keeps its files. */
  dataDir: string;
  /** MongoDB connection string; when set, every service stores its collections there instead. */
  mongoUrl: string;
  /** Moleculer transporter, e.g. `nats://127.0.0.1:4222`; empty runs everything in one process. */
  transporter: string;
  /** The NATS servers of TRANSPORTER and how to authenticate to them; null without NATS. */
  nats: NatsConfig | null;
  /** Comma-separated services this process runs, or `all`. */
  services: ServiceName[];
  /** Moleculer namespace: brokers only see brokers of the same namespace. */
  namespace: string;
  /** Moleculer node id; empty lets Moleculer derive one from host and pid. */
  nodeId: string;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace";
  /** Token that authenticates the instance administrator; start-up makes sure it works. */
  adminToken: string;
  adminEmail: string;
  /** SMTP server for the email identity sends (reset, sign-in and invitation links); empty: links go to the log. */
  smtpUrl: string;
  /** The From address of that email. */
  mailFrom: string;
  /** Tests only: private IP:port pairs an OpenID Provider's discovery and token requests may reach (and over http). */
  oidcAllowPrivate: string[];
  /** How long an action call may take before the caller gets a timeout. */
  requestTimeoutMs: number;
  /** How long the gateway trusts a token it has already checked. Revocation drops it at once. */
  authCacheTtlMs: number;
  /** Largest JSON request body the gateway accepts, in bytes. */
  jsonBodyLimitBytes: number;
  /** Requests per minute per user, all their API tokens together (0: no limit). Counted across every gateway. */
  rateLimitPerMinute: number;
  /** Requests per minute per client address for requests without a valid token (0: no limit). */
  rateLimitAnonPerMinute: number;
  /** Published-site page requests per minute per client address (0: no limit). */
  siteRateLimitPerMinute: number;
  /** Domains under PUBLIC_URL's host whose subdomains sites may still claim as hostnames (lower case). */
  siteHostnameSuffixes: string[];
  /** Proxies (addresses or CIDRs) whose X-Forwarded-For the gateway believes; empty believes none. */
  trustedProxies: string[];
  /** How long an Idempotency-Key's first answer is kept for replays. */
  idempotencyTtlSeconds: number;
  /** Deepest nesting of objects and arrays a JSON body may have. */
  jsonMaxDepth: number;
  /** Most elements any one array in a JSON body may have. */
  jsonMaxArrayLength: number;
  /** Longest string (in UTF-8 bytes) a JSON body may hold, keys included. */
  jsonMaxStringBytes: number;
  /** Deepest nesting a query parameter's value may parse into (a[b][c] is 2). */
  queryMaxDepth: number;
  /** Most items a query parameter's array (repeated keys or a[]=) may have. */
  queryMaxArrayLength: number;
  /** Port of this process's Prometheus `/metrics` endpoint; 0 turns metrics off. */
  metricsPort: number;
  /** Where finished tracing spans go: nowhere, the log, a Zipkin-compatible collector, or OTLP/HTTP. */
  tracingExporter: TracingExporter;
  /** The OTLP/HTTP (JSON) trace exporter's settings, from the standard OTEL_* variables. */
  otlp: OtlpConfig;
  /** Base URL of the Zipkin (or Jaeger's Zipkin-compatible) collector when tracingExporter is zipkin. */
  zipkinUrl: string;
  /** Port of this process's own `/health` and `/ready` server; 0 serves none (the gateway has its own). */
  healthPort: number;
  /** The openapi service's fetching and refreshing of API-description specs. */
  openapi: OpenAPIConfig;
  /** Most API tokens one user may hold at a time. */
  maxTokensPerUser: number;
  /** How SSO email domains are verified by DNS. */
  ssoDomains: SsoDomainsConfig;
  /** The git-sync service's limits, timers and credentials key. */
  gitSync: GitSyncConfig;
  /** The content service's website import (`POST …/content/import`). */
  contentImport: ContentImportConfig;
  /** The process's worker threads for work on untrusted input (@docshelf/worker-pool). */
  workers: WorkersConfig;
}

export interface WorkersConfig {
  /** Worker threads at most (WORKER_THREADS 0: one less than the cores, at least 1, at most 2). */
  threads: number;
  /** How long one task may run on a thread before the thread is ended and the task fails. */
  taskTimeoutMs: number;
  /** Each thread's V8 heap, in MiB. */
  memoryMb: number;
  /** Tasks that may wait for a thread; one more fails as busy. */
  maxQueue: number;
  /** Tasks one organization's background jobs (import runs, spec processing) may run at once. */
  orgConcurrency: number;
  /** Worker threads of the process, or worker processes each in a session of its own (WORKER_ISOLATION). */
  isolation: "thread" | "process";
}

export interface GitSyncConfig {
  /** Largest file accepted in a repository (import) or written to one (export). */
  maxFileBytes: number;
  /** Most pages a space may get from a repository. */
  maxPages: number;
  /** Largest answer of the Git server (a packfile), in bytes. */
  maxFetchBytes: number;
  /** Longest one HTTP request to the Git server may take. */
  requestTimeoutMs: number;
  /** How often the service looks for jobs left waiting (a restart, another replica's crash). */
  sweepIntervalMs: number;
  /** How long a worker holds a space's jobs without renewing before another may take over. */
  leaseMs: number;
  /** Secret the credentials of waiting jobs are sealed with; empty: one made and kept in the service's store. Never logged. */
  secret: string;
  /** Tests only: `IP:port` pairs a clone or push may reach although private (lower case). */
  allowedPrivateTargets: string[];
}

export interface ContentImportConfig {
  /** Pages imported at most per import. */
  maxPages: number;
  /** Bytes downloaded at most per import, all responses together. */
  maxBytesTotal: number;
  /** Time for the whole crawl, already capped at 80 % of REQUEST_TIMEOUT_MS (at least 1 s). */
  timeoutMs: number;
  /** Tests only: `IP:port` pairs the fetch may reach although private (lower case). */
  allowedPrivateTargets: string[];
  /** Time for a background import run's crawl (`startImportRun`); not tied to the request timeout. */
  runTimeoutMs: number;
  /** Bytes of the files uploaded with one import run, decoded, all files together. */
  uploadMaxBytes: number;
  /** Bytes a ZIP of an import run may hold once decompressed, all entries together. */
  zipMaxUncompressedBytes: number;
  /** Entries (files and folders) a ZIP of an import run may hold. */
  zipMaxEntries: number;
  /** Largest decompressed-to-compressed ratio of one ZIP entry (a zip bomb goes far over it). */
  zipMaxRatio: number;
  /** Import runs one organization may have pending or in progress at once. */
  maxActiveRuns: number;
}

/** Largest CONTENT_IMPORT_MAX_PAGES: one import is one revision, and a batch holds at most 10,000 changes. */
export const MAX_IMPORT_PAGES = 2000;

export interface SsoDomainsConfig {
  /** DNS servers (`IP` or `IP:port`) that verification asks; empty uses the system's resolvers. */
  dnsServers: string[];
  /** How long one verification waits for DNS answers. */
  dnsTimeoutMs: number;
}

/**
 * Where NATS is and how to log in, for every NATS client of a process (the transporter, JetStream
 * channels, the gateway's shared buckets). At most one way to authenticate is set.
 */
export interface NatsConfig {
  /** `host:port` of each server in TRANSPORTER, without credentials. */
  servers: string[];
  /** User and password from TRANSPORTER's `nats://user:password@host` (percent-decoded). */
  user?: string;
  pass?: string;
  /** NATS_TOKEN: the server's authorization token. */
  token?: string;
  /** NATS_CREDS_FILE: a .creds file (user JWT and nkey seed) of decentralized authentication. */
  credsFile?: string;
  /** NATS_NKEY_SEED_FILE: a file holding a user nkey seed (`SU...`). */
  nkeySeedFile?: string;
  /** NATS_STREAM_REPLICAS: copies of each JetStream stream and bucket docshelf makes (3 in a 3-node cluster). */
  streamReplicas: number;
}

export interface OpenAPIConfig {
  /** Total time to fetch a spec's URL, redirects included. */
  fetchTimeoutMs: number;
  /** Largest spec accepted, fetched or sent as text, in bytes. */
  maxBytes: number;
  /** How often a URL spec is fetched again. */
  refreshIntervalMs: number;
  /** How often the service looks for specs to process or refresh. */
  sweepIntervalMs: number;
  /** Tests only: `IP:port` pairs a fetch may reach although private (lower case). */
  fetchAllowPrivate: string[];
}

export const TRACING_EXPORTERS = ["none", "console", "zipkin", "otlp"] as const;

export interface OtlpConfig {
  /** Full URL spans are POSTed to: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces. */
  tracesUrl: string;
  /** OTEL_EXPORTER_OTLP_(TRACES_)HEADERS: sent with every export (an API key); never logged. */
  headers: Readonly<Record<string, string>>;
  /** OTEL_SERVICE_NAME; empty: each Moleculer service is its own `docshelf-<service>`. */
  serviceName: string;
  /** OTEL_EXPORTER_OTLP_(TRACES_)TIMEOUT: how long one export may take, in ms. */
  timeoutMs: number;
  /** OTEL_BSP_SCHEDULE_DELAY: how often finished spans are sent, in ms. */
  scheduleDelayMs: number;
}
export type TracingExporter = (typeof TRACING_EXPORTERS)[number];

export const ALL_SERVICES = ["gateway", "identity", "orgs", "content", "openapi", "comments", "sites", "change-requests", "git-sync", "app"] as const;
export type ServiceName = (typeof ALL_SERVICES)[number];

interface Variable {
  name: string;
  default: string;
  why: string;
}

/** Every variable, in the order the README's table lists them. */
export const VARIABLES: readonly Variable[] = [
  { name: "PORT", default: "8080", why: "HTTP port of the gateway." },
  { name: "HOST", default: "127.0.0.1", why: "Interface the gateway (and the health and metrics ports) binds to; only this machine can connect by default. 0.0.0.0 serves every interface (the container image sets it)." },
  { name: "PUBLIC_URL", default: "http://localhost:$PORT", why: "Absolute base URL used in every `urls` member." },
  { name: "DATA_DIR", default: "./data", why: "Directory of the embedded store: a SQLite database and stored files per service, DATA_DIR/<service>/ (ignored when MONGO_URL is set)." },
  { name: "MONGO_URL", default: "", why: "MongoDB connection string; when set, collections live in MongoDB." },
  { name: "TRANSPORTER", default: "", why: "Moleculer transporter: nats:// URLs separated by commas (nats://user:password@nats:4222 to log in with a password); empty means one process." },
  { name: "NATS_TOKEN", default: "", why: "Authorization token of the NATS servers (instead of a password in TRANSPORTER)." },
  { name: "NATS_CREDS_FILE", default: "", why: "Path of a NATS .creds file (user JWT and nkey seed) to log in with, instead of a password or token." },
  { name: "NATS_NKEY_SEED_FILE", default: "", why: "Path of a file holding a NATS user nkey seed (SU…) to log in with, instead of a password or token." },
  { name: "NATS_STREAM_REPLICAS", default: "1", why: "Copies of each JetStream stream and key-value bucket docshelf makes (durable channels, rate-limit and Idempotency-Key buckets); 3 in a three-server cluster keeps them through the loss of one server. Applies to streams made from then on." },
  { name: "SERVICES", default: "all", why: "Comma-separated services this process runs: gateway, identity, orgs, content, openapi, comments, sites, change-requests, git-sync, app, or all." },
  { name: "NAMESPACE", default: "", why: "Moleculer namespace; processes only join brokers of the same namespace." },
  { name: "NODE_ID", default: "", why: "Moleculer node id; empty derives one from the host name and pid." },
  { name: "LOGLEVEL", default: "info", why: "pino log level: fatal, error, warn, info, debug or trace." },
  { name: "ADMIN_TOKEN", default: "", why: "When set, start-up makes sure an instance administrator exists that this token authenticates. At least 32 characters and no placeholder (change-me, admin, secret, …), or start-up refuses it: make one with `openssl rand -hex 32`." },
  { name: "ADMIN_EMAIL", default: "admin@localhost", why: "Email of that instance administrator." },
  { name: "SMTP_URL", default: "", why: "SMTP server for password reset, sign-in and invitation links (smtp://user:pass@host:587, smtps://… for TLS). Unset: no email is sent and the links are logged for the administrator to pass on." },
  { name: "OIDC_FETCH_ALLOW_PRIVATE", default: "", why: "Tests only: comma-separated IP:port pairs an OpenID Provider may be reached at although private (and then over http). Never set it in production." },
  { name: "MAIL_FROM", default: "docshelf@<PUBLIC_URL's host>", why: "The From address of that email." },
  { name: "REQUEST_TIMEOUT_MS", default: "10000", why: "Timeout of every action call; a timed-out request answers 504." },
  { name: "AUTH_CACHE_TTL_MS", default: "30000", why: "How long the gateway caches a checked token; revoking drops it at once." },
  { name: "JSON_BODY_LIMIT_BYTES", default: "1048576", why: "Largest JSON request body; larger answers 413." },
  { name: "RATE_LIMIT_PER_MINUTE", default: "600", why: "Requests per minute per user (all their API tokens share one budget), across every gateway; over it answers 429. 0 disables." },
  { name: "RATE_LIMIT_ANON_PER_MINUTE", default: "60", why: "Requests per minute per client address without a valid token; over it answers 429. 0 disables." },
  { name: "SITE_RATE_LIMIT_PER_MINUTE", default: "1200", why: "Published-site requests (pages, stylesheet, search, sitemap) per minute per client address, across every gateway; over it answers a 429 page. 0 disables." },
  { name: "SITE_HOSTNAME_SUFFIXES", default: "", why: "Comma-separated domains under PUBLIC_URL's host (e.g. sites.docs.example.com) whose subdomains a site may claim as its hostname; every other subdomain of PUBLIC_URL's host, the host itself, IP literals and localhost are refused." },
  { name: "TRUSTED_PROXIES", default: "", why: "Comma-separated proxy addresses or CIDRs whose X-Forwarded-For is believed; empty believes none." },
  { name: "IDEMPOTENCY_TTL_SECONDS", default: "86400", why: "How long an Idempotency-Key's first answer is replayed to retries." },
  { name: "JSON_MAX_DEPTH", default: "32", why: "Deepest nesting of a JSON body; deeper answers 400." },
  { name: "JSON_MAX_ARRAY_LENGTH", default: "10000", why: "Most elements of any array in a JSON body; more answers 400." },
  { name: "JSON_MAX_STRING_BYTES", default: "1048576", why: "Longest string (UTF-8 bytes) in a JSON body; longer answers 400." },
  { name: "QUERY_MAX_DEPTH", default: "2", why: "Deepest nesting of a query parameter (a[b][c] is 2); deeper answers 400." },
  { name: "QUERY_MAX_ARRAY_LENGTH", default: "100", why: "Most items of a query parameter's array; more answers 400." },
  { name: "METRICS_PORT", default: "0", why: "Port of this process's Prometheus /metrics endpoint (Moleculer's reporter); 0 turns metrics off, so the embedded default opens no extra port." },
  { name: "TRACING_EXPORTER", default: "none", why: "Where tracing spans go: none, console (the log), zipkin (Zipkin or Jaeger's Zipkin endpoint) or otlp (OpenTelemetry's OTLP/HTTP with JSON). otlp when an OTEL_EXPORTER_OTLP_*ENDPOINT is set." },
  { name: "OTEL_EXPORTER_OTLP_ENDPOINT", default: "", why: "Base URL of an OpenTelemetry collector's OTLP/HTTP receiver (http://otel-collector:4318); spans go to its /v1/traces. Setting it turns tracing on (TRACING_EXPORTER otlp)." },
  { name: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", default: "", why: "Full URL for spans, used as is; wins over OTEL_EXPORTER_OTLP_ENDPOINT." },
  { name: "OTEL_EXPORTER_OTLP_HEADERS", default: "", why: "Headers sent with every export, key=value,key2=value2 (URL-encoded values), e.g. an API key; OTEL_EXPORTER_OTLP_TRACES_HEADERS wins. Never logged." },
  { name: "OTEL_EXPORTER_OTLP_TIMEOUT", default: "10000", why: "Milliseconds one export may take before it is abandoned (its spans are dropped); OTEL_EXPORTER_OTLP_TRACES_TIMEOUT wins." },
  { name: "OTEL_BSP_SCHEDULE_DELAY", default: "5000", why: "Milliseconds between two exports of finished spans (and sooner when 512 are waiting); at most 2,048 wait, newer ones are dropped and counted." },
  { name: "OTEL_SERVICE_NAME", default: "", why: "The service.name of every span of this process. Empty: docshelf-<service> after the Moleculer service that made the span (docshelf-gateway, docshelf-content, …)." },
  { name: "ZIPKIN_URL", default: "http://localhost:9411", why: "Base URL of the Zipkin-compatible collector when TRACING_EXPORTER is zipkin." },
  { name: "HEALTH_PORT", default: "0", why: "Port of a /health and /ready server for processes without the gateway (Kubernetes probes); 0 serves none." },
  { name: "OPENAPI_FETCH_TIMEOUT_MS", default: "10000", why: "Total time to fetch an OpenAPI spec's URL, redirects included; past it the run fails with FETCH_TIMEOUT." },
  { name: "OPENAPI_MAX_BYTES", default: "5242880", why: "Largest OpenAPI spec accepted (5 MiB), fetched or sent as source.text; also bounded by JSON_BODY_LIMIT_BYTES." },
  { name: "OPENAPI_REFRESH_INTERVAL_MS", default: "21600000", why: "How often a URL spec is fetched again (6 h); a new version only when its content changed." },
  { name: "OPENAPI_SWEEP_INTERVAL_MS", default: "60000", why: "How often the openapi service looks for specs to process or refresh (never less often than the refresh interval)." },
  { name: "MAX_TOKENS_PER_USER", default: "100", why: "Most API tokens one user holds at a time (SSO sign-ins included); creating one more answers 400." },
  { name: "SSO_DNS_SERVERS", default: "", why: "Comma-separated DNS servers (IP or IP:port) that SSO domain verification asks for TXT records; empty uses the system's resolvers." },
  { name: "SSO_DNS_TIMEOUT_MS", default: "5000", why: "How long an SSO domain verification waits for DNS before answering that the record was not found." },
  { name: "OPENAPI_FETCH_ALLOW_PRIVATE", default: "", why: "Tests only: comma-separated IP:port pairs (127.0.0.1:8081, [::1]:8081) a spec fetch may reach although private. Never set it in production." },
  { name: "GIT_SYNC_MAX_FILE_BYTES", default: "104857600", why: "Largest file Git sync reads from or writes to a repository (100 MiB)." },
  { name: "GIT_SYNC_MAX_PAGES", default: "5000", why: "Most pages a space may get from a repository; a larger import fails." },
  { name: "GIT_SYNC_MAX_FETCH_BYTES", default: "1073741824", why: "Largest answer of a Git server (a packfile, 1 GiB)." },
  { name: "GIT_SYNC_REQUEST_TIMEOUT_MS", default: "120000", why: "Longest single HTTP request to a Git server." },
  { name: "GIT_SYNC_SWEEP_INTERVAL_MS", default: "10000", why: "How often git-sync looks for Git jobs left waiting or abandoned." },
  { name: "GIT_SYNC_LEASE_MS", default: "60000", why: "How long a git-sync worker holds a space's jobs without renewing before another may take over." },
  { name: "GIT_SYNC_SECRET", default: "", why: "Key material the credentials of waiting Git jobs are sealed with; empty makes one and keeps it in git-sync's store. When set, every replica needs the same value." },
  { name: "GIT_SYNC_ALLOW_PRIVATE", default: "", why: "Tests only: comma-separated IP:port pairs a clone or push may reach although private. Never set it in production." },
  { name: "CONTENT_IMPORT_MAX_PAGES", default: "50", why: "Pages imported per website import (at most 2000); the crawl stops there." },
  { name: "CONTENT_IMPORT_MAX_BYTES", default: "20971520", why: "Bytes a website import downloads, all answers together (20 MiB; each page at most 5 MiB)." },
  { name: "CONTENT_IMPORT_TIMEOUT_MS", default: "60000", why: "Time for a website import's crawl, capped at 80 % of REQUEST_TIMEOUT_MS so the answer comes before the gateway gives up." },
  { name: "CONTENT_IMPORT_ALLOW_PRIVATE", default: "", why: "Tests only: comma-separated IP:port pairs a website import may reach although private. Never set it in production." },
  { name: "CONTENT_IMPORT_RUN_TIMEOUT_MS", default: "600000", why: "Time for the crawl of a background import run (startImportRun); the run fails after it with what it had not committed discarded." },
  { name: "CONTENT_IMPORT_UPLOAD_MAX_BYTES", default: "10485760", why: "Bytes of the files sent with one import run (Markdown, HTML, ZIP), decoded; also bounded by JSON_BODY_LIMIT_BYTES and JSON_MAX_STRING_BYTES." },
  { name: "CONTENT_IMPORT_ZIP_MAX_UNCOMPRESSED_BYTES", default: "52428800", why: "Bytes a ZIP sent to an import run may hold once decompressed, all entries together (50 MiB)." },
  { name: "CONTENT_IMPORT_ZIP_MAX_ENTRIES", default: "2000", why: "Entries (files and folders) a ZIP sent to an import run may hold." },
  { name: "CONTENT_IMPORT_ZIP_MAX_RATIO", default: "100", why: "Largest decompressed-to-compressed size ratio of one ZIP entry; a zip bomb is refused." },
  { name: "CONTENT_IMPORT_MAX_ACTIVE_RUNS", default: "5", why: "Import runs one organization may have pending or in progress at once; one more answers 429." },
  { name: "WORKER_THREADS", default: "0", why: "Worker threads of a process for work on untrusted input (an import run's files, OpenAPI specs); 0: one less than the cores (the event loop keeps one), at least 1, at most 2. See docs/SECURITY.md, Resource exhaustion." },
  { name: "WORKER_TASK_TIMEOUT_MS", default: "60000", why: "Time one such task may run on its thread; past it the thread is ended and replaced, and the import run or spec fails naming the limit." },
  { name: "WORKER_MEMORY_MB", default: "512", why: "V8 heap of each worker thread, in MiB; a task needing more fails naming the limit." },
  { name: "WORKER_MAX_QUEUE", default: "64", why: "Tasks that may wait for a worker thread in one process; one more fails as busy (an import run fails, a spec is tried again later)." },
  { name: "WORKER_ISOLATION", default: "thread", why: "Where that work runs: worker threads of the service's process (thread), or worker processes each started in a session of its own (process: on Linux with autogroup scheduling their CPU competes as one group against the service's; on a loaded two-core machine an import finished about 4 times sooner than on a thread, another tenant's worst read during it lower). WORKER_THREADS counts the processes too. See docs/SECURITY.md, Resource exhaustion." },
  { name: "WORKER_ORG_CONCURRENCY", default: "1", why: "Worker tasks one organization's import runs, and specs of one organization being processed, may run at once in one process; the others wait their turn." },
];

/** Every problem found in the configuration; the message lists them all, one per line after the first. */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string | string[]) {
    const list = Array.isArray(problems) ? problems : [problems];
    super(list.length === 1 ? list[0] : `${list.length} problems:\n  - ${list.join("\n  - ")}`);
    this.problems = list;
  }
}

/** A variable that is set but empty takes its default, as an unset one does (env files often leave them empty). */
function integer(env: NodeJS.ProcessEnv, name: string, fallback: string, min: number, max: number): number {
  const raw = (env[name] || fallback).trim();
  const value = Number(raw);
  // Plain decimal digits only: Number() would also take "0x50", "8e3" or "1_000"-like surprises.
  if (!/^-?[0-9]+$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, fallback: T, allowed: readonly T[]): T {
  const raw = (env[name] || fallback) as T;
  if (!allowed.includes(raw)) throw new ConfigError(`${name} must be one of ${allowed.join(", ")}, got "${raw}"`);
  return raw;
}

/** Addresses or CIDRs (v4 or v6); each is checked so a typo cannot silently trust nobody, or everybody. */
function addressList(env: NodeJS.ProcessEnv, name: string): string[] {
  const entries = (env[name] || "").split(",").map((s) => s.trim()).filter(Boolean);
  for (const entry of entries) {
    const [address, prefix, extra] = entry.split("/");
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (!family || !prefixOk || extra !== undefined) {
      throw new ConfigError(`${name} must list IP addresses or CIDRs separated by commas, got "${entry}"`);
    }
  }
  return entries;
}

/** Largest byte limit a variable takes (1 TiB). */
const MAX_SIZE = 1099511627776;

const TARGET = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\]):\d{1,5}$/i;

/** Exact `IP:port` pairs (tests' loopback servers) that a fetch may reach although private. */
function targetList(env: NodeJS.ProcessEnv, name: string): string[] {
  const entries = (env[name] || "").split(",").map((s) => s.trim()).filter(Boolean);
  for (const entry of entries) {
    if (!TARGET.test(entry)) throw new ConfigError(`${name} must list IP:port pairs such as 127.0.0.1:8081, got "${entry}"`);
  }
  return entries.map((e) => e.toLowerCase());
}

const DNS_SERVER = /^(\d{1,3}(\.\d{1,3}){3}(:\d{1,5})?|\[[0-9a-f:.]+\]:\d{1,5}|[0-9a-f:]+)$/i;

/** DNS servers as node's resolver takes them: `IP`, `IP:port` or `[IPv6]:port`. */
function dnsServerList(env: NodeJS.ProcessEnv, name: string): string[] {
  const entries = (env[name] || "").split(",").map((s) => s.trim()).filter(Boolean);
  for (const entry of entries) {
    const address = entry.startsWith("[") ? entry.slice(1, entry.indexOf("]")) : entry.includes(".") ? entry.split(":")[0] : entry;
    if (!DNS_SERVER.test(entry) || !isIP(address)) throw new ConfigError(`${name} must list DNS servers as IP or IP:port separated by commas, got "${entry}"`);
  }
  return entries;
}

const DOMAIN = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.])+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** Dotted domain names, lower-cased; a leading dot is dropped. */
function domainList(env: NodeJS.ProcessEnv, name: string): string[] {
  const entries = (env[name] || "").split(",").map((s) => s.trim().toLowerCase().replace(/^[.]/, "")).filter(Boolean);
  for (const entry of entries) {
    if (!DOMAIN.test(entry)) throw new ConfigError(`${name} must list dotted domain names separated by commas, got "${entry}"`);
  }
  return entries;
}

/** An absolute http(s) URL; the message never repeats the value, which may carry credentials. */
function httpUrl(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = (env[name] || fallback).replace(/\/+$/, "");
  let parsed: URL | undefined;
  try {
    parsed = new URL(raw);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:") || !parsed.host) {
    throw new ConfigError(`${name} must be an absolute http:// or https:// URL`);
  }
  return raw;
}

/** Where OTLP spans go (OpenTelemetry's rules: the signal's own endpoint as is, the general one + /v1/traces); "" for none. */
function otlpTracesUrl(env: NodeJS.ProcessEnv): string {
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return httpUrl(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "");
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) return `${httpUrl(env, "OTEL_EXPORTER_OTLP_ENDPOINT", "")}/v1/traces`;
  return "";
}

/** OTEL_EXPORTER_OTLP_(TRACES_)HEADERS, `key=value` pairs separated by commas, values URL-encoded; errors never echo a value. */
function otlpHeaders(env: NodeJS.ProcessEnv): Record<string, string> {
  const name = env.OTEL_EXPORTER_OTLP_TRACES_HEADERS ? "OTEL_EXPORTER_OTLP_TRACES_HEADERS" : "OTEL_EXPORTER_OTLP_HEADERS";
  const headers: Record<string, string> = {};
  for (const pair of (env[name] || "").split(",").map((p) => p.trim()).filter(Boolean)) {
    const at = pair.indexOf("=");
    const key = at > 0 ? pair.slice(0, at).trim() : "";
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(key)) throw new ConfigError(`${name} must be key=value pairs separated by commas`);
    let value: string;
    try {
      value = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      throw new ConfigError(`${name}: the value of ${key} is not URL-encoded correctly`);
    }
    if (/[\r\n\0]/.test(value)) throw new ConfigError(`${name}: the value of ${key} holds a line break`);
    headers[key.toLowerCase()] = value;
  }
  return headers;
}

function serviceList(raw: string): ServiceName[] {
  const names = [...new Set(raw.split(",").map((s) => s.trim()).filter(Boolean))];
  if (names.length === 0 || names.includes("all")) return [...ALL_SERVICES];
  for (const name of names) {
    if (!(ALL_SERVICES as readonly string[]).includes(name)) {
      throw new ConfigError(`SERVICES names an unknown service "${name}"; known: ${ALL_SERVICES.join(", ")}`);
    }
  }
  return names as ServiceName[];
}

/** TRANSPORTER's servers and the one way of logging in to them; errors never repeat a credential. */
function natsConfig(env: NodeJS.ProcessEnv, transporter: string): NatsConfig | null {
  const token = env.NATS_TOKEN || "";
  const credsFile = env.NATS_CREDS_FILE || "";
  const nkeySeedFile = env.NATS_NKEY_SEED_FILE || "";
  if (!/^nats:/i.test(transporter)) {
    const stray = [["NATS_TOKEN", token], ["NATS_CREDS_FILE", credsFile], ["NATS_NKEY_SEED_FILE", nkeySeedFile]].find(([, v]) => v);
    if (stray) throw new ConfigError(`${stray[0]} is set but TRANSPORTER is not a nats:// URL`);
    return null;
  }
  const servers: string[] = [];
  let user = "";
  let pass = "";
  for (const [i, part] of transporter.split(",").map((s) => s.trim()).entries()) {
    let url: URL | undefined;
    try {
      url = new URL(part);
    } catch {
      url = undefined;
    }
    if (!url || url.protocol.toLowerCase() !== "nats:" || !url.hostname || (url.pathname && url.pathname !== "/") || url.search || url.hash) {
      throw new ConfigError(`TRANSPORTER must be nats://host:port URLs separated by commas; entry ${i + 1} is not one`);
    }
    servers.push(url.host);
    if (url.username || url.password) {
      let u: string;
      let p: string;
      try {
        u = decodeURIComponent(url.username);
        p = decodeURIComponent(url.password);
      } catch {
        throw new ConfigError(`TRANSPORTER entry ${i + 1} has credentials that are not valid percent-encoding`);
      }
      if (!u || !p) throw new ConfigError(`TRANSPORTER entry ${i + 1} must name both a user and a password, or neither (a token goes in NATS_TOKEN)`);
      if ((user || pass) && (u !== user || p !== pass)) throw new ConfigError("TRANSPORTER's entries must all carry the same user and password");
      user = u;
      pass = p;
    }
  }
  const ways = [user ? "a password in TRANSPORTER" : "", token ? "NATS_TOKEN" : "", credsFile ? "NATS_CREDS_FILE" : "", nkeySeedFile ? "NATS_NKEY_SEED_FILE" : ""].filter(Boolean);
  if (ways.length > 1) throw new ConfigError(`NATS takes one way to log in; ${ways.join(" and ")} are both set`);
  for (const [name, file] of [["NATS_CREDS_FILE", credsFile], ["NATS_NKEY_SEED_FILE", nkeySeedFile]]) {
    if (!file) continue;
    try {
      accessSync(file, constants.R_OK);
    } catch {
      throw new ConfigError(`${name} must name a readable file, got "${file}"`);
    }
  }
  return Object.freeze({
    servers,
    streamReplicas: integer(env, "NATS_STREAM_REPLICAS", "1", 1, 5),
    ...(user ? { user, pass } : {}),
    ...(token ? { token } : {}),
    ...(credsFile ? { credsFile } : {}),
    ...(nkeySeedFile ? { nkeySeedFile } : {}),
  });
}

/** Placeholders seen in examples and env files; a token that is (or contains) one is guessable. */
const PLACEHOLDERS = ["changeme", "replaceme", "yourtoken", "placeholder", "example", "admintoken", "secrettoken", "password", "letmein", "qwerty"];
const EXACT_PLACEHOLDERS = ["admin", "secret", "token", "test", "default", "docshelf", "root"];
/** The bearer tokens the gateway accepts (its BEARER pattern), so the token can be sent at all. */
const TOKEN_CHARS = /^[A-Za-z0-9._~+/=-]+$/;
export const ADMIN_TOKEN_MIN_LENGTH = 32;

/** A reason ADMIN_TOKEN is refused, or undefined; the message never repeats the token. */
export function adminTokenProblem(token: string): string | undefined {
  if (!token) return undefined;
  const folded = token.toLowerCase().replace(/[^a-z0-9]/g, "");
  const placeholder = EXACT_PLACEHOLDERS.includes(folded) || PLACEHOLDERS.some((p) => folded.includes(p));
  const fix = "make one with: openssl rand -hex 32";
  if (placeholder) return `ADMIN_TOKEN is a placeholder anyone could guess; ${fix}`;
  if (token.length < ADMIN_TOKEN_MIN_LENGTH) return `ADMIN_TOKEN must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters long, got ${token.length}; ${fix}`;
  if (token.length > 256 || !TOKEN_CHARS.test(token)) return `ADMIN_TOKEN must be at most 256 letters, digits or . _ ~ + / = - (it is sent as a Bearer token); ${fix}`;
  if (new Set(token).size < 8) return `ADMIN_TOKEN repeats too few different characters to be secret; ${fix}`;
  return undefined;
}

/**
 * Reads and validates the configuration; throws one ConfigError naming every bad variable (its
 * `problems`), so that a start-up shows them all at once.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  /** The value `read` gives, or `fallback` when it throws a ConfigError (noted in `problems`). */
  const check = <T>(read: () => T, fallback: T): T => {
    try {
      return read();
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(err.message);
      return fallback;
    }
  };
  const port = check(() => integer(env, "PORT", "8080", 0, 65535), 8080);
  const publicUrl = (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, "");
  let parsed: URL | undefined;
  try {
    parsed = new URL(publicUrl);
  } catch {
    parsed = undefined;
  }
  // "localhost:8080" parses as a URL of scheme "localhost:", so the scheme is checked too.
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:") || !parsed.host) {
    problems.push(`PUBLIC_URL must be an absolute http:// or https:// URL, got "${publicUrl}"`);
  }
  const transporter = env.TRANSPORTER ?? "";
  if (transporter && !/^(nats|fake):/i.test(transporter) && transporter !== "Fake") {
    // Only the scheme is repeated: the rest may hold credentials.
    const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(transporter)?.[0];
    problems.push(`TRANSPORTER must be a nats:// URL (or Fake for tests), got ${scheme ? `a "${scheme}" URL` : "something else"}`);
  }
  const nats = check(() => natsConfig(env, transporter), null);
  const adminToken = env.ADMIN_TOKEN || "";
  const tokenProblem = adminTokenProblem(adminToken);
  if (tokenProblem) problems.push(tokenProblem);
  const cfg: Config = {
    port,
    host: env.HOST || "127.0.0.1",
    publicUrl,
    dataDir: env.DATA_DIR || "./data",
    mongoUrl: env.MONGO_URL || "",
    transporter,
    nats,
    services: check(() => serviceList(env.SERVICES || "all"), [...ALL_SERVICES]),
    namespace: env.NAMESPACE || "",
    nodeId: env.NODE_ID || "",
    logLevel: check(() => oneOf(env, "LOGLEVEL", "info", ["fatal", "error", "warn", "info", "debug", "trace"] as const), "info"),
    adminToken,
    adminEmail: (env.ADMIN_EMAIL || "admin@localhost").toLowerCase(),
    smtpUrl: env.SMTP_URL || "",
    oidcAllowPrivate: check(() => targetList(env, "OIDC_FETCH_ALLOW_PRIVATE"), []),
    mailFrom: env.MAIL_FROM || `docshelf@${parsedHost(publicUrl)}`,
    requestTimeoutMs: check(() => integer(env, "REQUEST_TIMEOUT_MS", "10000", 100, 600000), 0),
    authCacheTtlMs: check(() => integer(env, "AUTH_CACHE_TTL_MS", "30000", 0, 3600000), 0),
    jsonBodyLimitBytes: check(() => integer(env, "JSON_BODY_LIMIT_BYTES", "1048576", 1024, 104857600), 0),
    rateLimitPerMinute: check(() => integer(env, "RATE_LIMIT_PER_MINUTE", "600", 0, 10000000), 0),
    rateLimitAnonPerMinute: check(() => integer(env, "RATE_LIMIT_ANON_PER_MINUTE", "60", 0, 10000000), 0),
    siteRateLimitPerMinute: check(() => integer(env, "SITE_RATE_LIMIT_PER_MINUTE", "1200", 0, 10000000), 0),
    siteHostnameSuffixes: check(() => domainList(env, "SITE_HOSTNAME_SUFFIXES"), []),
    trustedProxies: check(() => addressList(env, "TRUSTED_PROXIES"), []),
    idempotencyTtlSeconds: check(() => integer(env, "IDEMPOTENCY_TTL_SECONDS", "86400", 60, 2592000), 0),
    jsonMaxDepth: check(() => integer(env, "JSON_MAX_DEPTH", "32", 1, 1000), 0),
    jsonMaxArrayLength: check(() => integer(env, "JSON_MAX_ARRAY_LENGTH", "10000", 1, 10000000), 0),
    jsonMaxStringBytes: check(() => integer(env, "JSON_MAX_STRING_BYTES", "1048576", 1, 104857600), 0),
    queryMaxDepth: check(() => integer(env, "QUERY_MAX_DEPTH", "2", 0, 20), 0),
    queryMaxArrayLength: check(() => integer(env, "QUERY_MAX_ARRAY_LENGTH", "100", 1, 100000), 0),
    metricsPort: check(() => integer(env, "METRICS_PORT", "0", 0, 65535), 0),
    tracingExporter: check(() => oneOf(env, "TRACING_EXPORTER", otlpTracesUrl(env) ? "otlp" : "none", TRACING_EXPORTERS), "none"),
    otlp: Object.freeze({
      tracesUrl: check(() => otlpTracesUrl(env), ""),
      headers: Object.freeze(check(() => otlpHeaders(env), {})),
      serviceName: (env.OTEL_SERVICE_NAME || "").trim(),
      timeoutMs: check(() => integer(env, env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT ? "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT" : "OTEL_EXPORTER_OTLP_TIMEOUT", "10000", 1, 600000), 0),
      scheduleDelayMs: check(() => integer(env, "OTEL_BSP_SCHEDULE_DELAY", "5000", 10, 600000), 0),
    }),
    zipkinUrl: check(() => httpUrl(env, "ZIPKIN_URL", "http://localhost:9411"), ""),
    healthPort: check(() => integer(env, "HEALTH_PORT", "0", 0, 65535), 0),
    openapi: Object.freeze({
      fetchTimeoutMs: check(() => integer(env, "OPENAPI_FETCH_TIMEOUT_MS", "10000", 1, 3600000), 0),
      maxBytes: check(() => integer(env, "OPENAPI_MAX_BYTES", "5242880", 1, 1073741824), 0),
      refreshIntervalMs: check(() => integer(env, "OPENAPI_REFRESH_INTERVAL_MS", "21600000", 1, 2592000000), 0),
      sweepIntervalMs: check(() => integer(env, "OPENAPI_SWEEP_INTERVAL_MS", "60000", 1, 2592000000), 0),
      fetchAllowPrivate: check(() => targetList(env, "OPENAPI_FETCH_ALLOW_PRIVATE"), []),
    }),
    maxTokensPerUser: check(() => integer(env, "MAX_TOKENS_PER_USER", "100", 1, 100000), 0),
    ssoDomains: Object.freeze({
      dnsServers: check(() => dnsServerList(env, "SSO_DNS_SERVERS"), []),
      dnsTimeoutMs: check(() => integer(env, "SSO_DNS_TIMEOUT_MS", "5000", 100, 60000), 0),
    }),
    gitSync: Object.freeze({
      maxFileBytes: check(() => integer(env, "GIT_SYNC_MAX_FILE_BYTES", "104857600", 1, MAX_SIZE), 0),
      maxPages: check(() => integer(env, "GIT_SYNC_MAX_PAGES", "5000", 1, 10000000), 0),
      maxFetchBytes: check(() => integer(env, "GIT_SYNC_MAX_FETCH_BYTES", "1073741824", 1, MAX_SIZE), 0),
      requestTimeoutMs: check(() => integer(env, "GIT_SYNC_REQUEST_TIMEOUT_MS", "120000", 1, 86400000), 0),
      sweepIntervalMs: check(() => integer(env, "GIT_SYNC_SWEEP_INTERVAL_MS", "10000", 1, 86400000), 0),
      leaseMs: check(() => integer(env, "GIT_SYNC_LEASE_MS", "60000", 1, 86400000), 0),
      secret: env.GIT_SYNC_SECRET || "",
      allowedPrivateTargets: check(() => targetList(env, "GIT_SYNC_ALLOW_PRIVATE"), []),
    }),
    contentImport: Object.freeze({
      maxPages: check(() => integer(env, "CONTENT_IMPORT_MAX_PAGES", "50", 1, MAX_IMPORT_PAGES), 0),
      maxBytesTotal: check(() => integer(env, "CONTENT_IMPORT_MAX_BYTES", "20971520", 1, MAX_SIZE), 0),
      timeoutMs: check(() => integer(env, "CONTENT_IMPORT_TIMEOUT_MS", "60000", 1, 86400000), 0),
      allowedPrivateTargets: check(() => targetList(env, "CONTENT_IMPORT_ALLOW_PRIVATE"), []),
      runTimeoutMs: check(() => integer(env, "CONTENT_IMPORT_RUN_TIMEOUT_MS", "600000", 1, 86400000), 0),
      uploadMaxBytes: check(() => integer(env, "CONTENT_IMPORT_UPLOAD_MAX_BYTES", "10485760", 1, MAX_SIZE), 0),
      zipMaxUncompressedBytes: check(() => integer(env, "CONTENT_IMPORT_ZIP_MAX_UNCOMPRESSED_BYTES", "52428800", 1, MAX_SIZE), 0),
      zipMaxEntries: check(() => integer(env, "CONTENT_IMPORT_ZIP_MAX_ENTRIES", "2000", 1, 1000000), 0),
      zipMaxRatio: check(() => integer(env, "CONTENT_IMPORT_ZIP_MAX_RATIO", "100", 1, 100000), 0),
      maxActiveRuns: check(() => integer(env, "CONTENT_IMPORT_MAX_ACTIVE_RUNS", "5", 1, 10000), 0),
    }),
    workers: Object.freeze({
      threads: check(() => integer(env, "WORKER_THREADS", "0", 0, 256), 0) || Math.max(1, Math.min(2, availableParallelism() - 1)),
      taskTimeoutMs: check(() => integer(env, "WORKER_TASK_TIMEOUT_MS", "60000", 100, 86400000), 0),
      memoryMb: check(() => integer(env, "WORKER_MEMORY_MB", "512", 16, 65536), 0),
      maxQueue: check(() => integer(env, "WORKER_MAX_QUEUE", "64", 0, 100000), 0),
      orgConcurrency: check(() => integer(env, "WORKER_ORG_CONCURRENCY", "1", 1, 256), 0),
      isolation: check(() => oneOf(env, "WORKER_ISOLATION", "thread", ["thread", "process"] as const), "thread" as const),
    }),
  };
  // The crawl's time leaves a fifth of the request timeout for the answer and the commit.
  const importCap = Math.max(1000, Math.floor(cfg.requestTimeoutMs * 0.8));
  cfg.contentImport = Object.freeze({ ...cfg.contentImport, timeoutMs: Math.min(cfg.contentImport.timeoutMs, importCap) });
  if (problems.length) throw new ConfigError(problems);
  return Object.freeze(cfg);
}

let current: Config | undefined;

/** The process-wide configuration, read once. Tests pass their own through service settings. */
export function config(): Config {
  if (!current) current = loadConfig();
  return current;
}

const perBroker = new WeakMap<object, Config>();

/** Binds a configuration to a broker so that its services read that one (several brokers in one test process). */
export function bindConfig(broker: object, cfg: Config): void {
  perBroker.set(broker, cfg);
}

/** The configuration a service should use: its broker's, else the process-wide one. */
export function configFor(broker: object): Config {
  return perBroker.get(broker) ?? config();
}
export { natsConnectionOptions } from "./nats";

/** The host name of a URL, or "localhost" when it does not parse. */
function parsedHost(url: string): string {
  try {
    return new URL(url).hostname || "localhost";
  } catch {
    return "localhost";
  }
}
