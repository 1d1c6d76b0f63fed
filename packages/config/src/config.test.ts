import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { ALL_SERVICES, ConfigError, MAX_IMPORT_PAGES, VARIABLES, bindConfig, configFor, loadConfig, natsConnectionOptions } from "./index";

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe("defaults", () => {
  test("an empty environment gives the documented defaults", () => {
    expect(loadConfig({})).toEqual({
      port: 8080,
      host: "127.0.0.1",
      publicUrl: "http://localhost:8080",
      dataDir: "./data",
      mongoUrl: "",
      transporter: "",
      nats: null,
      services: [...ALL_SERVICES],
      namespace: "",
      nodeId: "",
      logLevel: "info",
      adminToken: "",
      adminEmail: "admin@localhost",
      smtpUrl: "",
      mailFrom: "docshelf@localhost",
      oidcAllowPrivate: [],
      requestTimeoutMs: 10000,
      authCacheTtlMs: 30000,
      jsonBodyLimitBytes: 1048576,
      rateLimitPerMinute: 600,
      rateLimitAnonPerMinute: 60,
      siteRateLimitPerMinute: 1200,
      siteHostnameSuffixes: [],
      trustedProxies: [],
      idempotencyTtlSeconds: 86400,
      jsonMaxDepth: 32,
      jsonMaxArrayLength: 10000,
      jsonMaxStringBytes: 1048576,
      queryMaxDepth: 2,
      queryMaxArrayLength: 100,
      metricsPort: 0,
      tracingExporter: "none",
      otlp: { tracesUrl: "", headers: {}, serviceName: "", timeoutMs: 10000, scheduleDelayMs: 5000 },
      zipkinUrl: "http://localhost:9411",
      workers: { threads: Math.max(1, Math.min(2, availableParallelism() - 1)), taskTimeoutMs: 60000, memoryMb: 512, maxQueue: 64, orgConcurrency: 1, isolation: "thread" },
      healthPort: 0,
      openapi: { fetchTimeoutMs: 10000, maxBytes: 5242880, refreshIntervalMs: 21600000, sweepIntervalMs: 60000, fetchAllowPrivate: [] },
      maxTokensPerUser: 100,
      ssoDomains: { dnsServers: [], dnsTimeoutMs: 5000 },
      gitSync: {
        maxFileBytes: 100 * 1024 * 1024,
        maxPages: 5000,
        maxFetchBytes: 1024 * 1024 * 1024,
        requestTimeoutMs: 120000,
        sweepIntervalMs: 10000,
        leaseMs: 60000,
        secret: "",
        allowedPrivateTargets: [],
      },
      // The import's 60 s is capped at 80 % of the 10 s request timeout.
      contentImport: {
        maxPages: 50,
        maxBytesTotal: 20 * 1024 * 1024,
        timeoutMs: 8000,
        allowedPrivateTargets: [],
        runTimeoutMs: 600000,
        uploadMaxBytes: 10 * 1024 * 1024,
        zipMaxUncompressedBytes: 50 * 1024 * 1024,
        zipMaxEntries: 2000,
        zipMaxRatio: 100,
        maxActiveRuns: 5,
      },
    });
  });

  test("the GIT_SYNC_* variables are read, and a bad value names its variable", () => {
    const env = {
      GIT_SYNC_MAX_FILE_BYTES: "1000",
      GIT_SYNC_MAX_PAGES: "7",
      GIT_SYNC_MAX_FETCH_BYTES: "2000",
      GIT_SYNC_REQUEST_TIMEOUT_MS: "1500",
      GIT_SYNC_SWEEP_INTERVAL_MS: "200",
      GIT_SYNC_LEASE_MS: "3000",
      GIT_SYNC_SECRET: "a-kept-secret",
      GIT_SYNC_ALLOW_PRIVATE: "127.0.0.1:8081, [::1]:9000",
    };
    expect(loadConfig(env).gitSync).toEqual({
      maxFileBytes: 1000,
      maxPages: 7,
      maxFetchBytes: 2000,
      requestTimeoutMs: 1500,
      sweepIntervalMs: 200,
      leaseMs: 3000,
      secret: "a-kept-secret",
      allowedPrivateTargets: ["127.0.0.1:8081", "[::1]:9000"],
    });
    for (const [name, value] of [["GIT_SYNC_MAX_PAGES", "0"], ["GIT_SYNC_MAX_FILE_BYTES", "lots"], ["GIT_SYNC_LEASE_MS", "-5"], ["GIT_SYNC_ALLOW_PRIVATE", "localhost:80"], ["GIT_SYNC_ALLOW_PRIVATE", "127.0.0.1"]]) {
      expect(() => loadConfig({ [name]: value })).toThrow(name);
    }
  });

  test("a bad variable's message never repeats GIT_SYNC_SECRET", () => {
    let message = "";
    try {
      loadConfig({ GIT_SYNC_SECRET: "do-not-print-me", GIT_SYNC_MAX_PAGES: "none" });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain("GIT_SYNC_MAX_PAGES");
    expect(message).not.toContain("do-not-print-me");
  });

  test("the CONTENT_IMPORT_* variables are read, the crawl's time capped at 80 % of REQUEST_TIMEOUT_MS", () => {
    const env = {
      CONTENT_IMPORT_MAX_PAGES: "7",
      CONTENT_IMPORT_MAX_BYTES: "1000",
      CONTENT_IMPORT_TIMEOUT_MS: "1500",
      CONTENT_IMPORT_ALLOW_PRIVATE: "127.0.0.1:8081, [::1]:9000",
      CONTENT_IMPORT_RUN_TIMEOUT_MS: "900000",
      CONTENT_IMPORT_UPLOAD_MAX_BYTES: "2048",
      CONTENT_IMPORT_ZIP_MAX_UNCOMPRESSED_BYTES: "4096",
      CONTENT_IMPORT_ZIP_MAX_ENTRIES: "9",
      CONTENT_IMPORT_ZIP_MAX_RATIO: "20",
      CONTENT_IMPORT_MAX_ACTIVE_RUNS: "2",
    };
    expect(loadConfig(env).contentImport).toEqual({
      maxPages: 7,
      maxBytesTotal: 1000,
      timeoutMs: 1500,
      allowedPrivateTargets: ["127.0.0.1:8081", "[::1]:9000"],
      // The background run's time is not capped by the request timeout.
      runTimeoutMs: 900000,
      uploadMaxBytes: 2048,
      zipMaxUncompressedBytes: 4096,
      zipMaxEntries: 9,
      zipMaxRatio: 20,
      maxActiveRuns: 2,
    });
    expect(loadConfig({ REQUEST_TIMEOUT_MS: "600000" }).contentImport.timeoutMs).toBe(60000);
    expect(loadConfig({ REQUEST_TIMEOUT_MS: "100" }).contentImport.timeoutMs).toBe(1000);
  });

  test.each([
    ["CONTENT_IMPORT_MAX_PAGES", "0"],
    ["CONTENT_IMPORT_MAX_PAGES", String(MAX_IMPORT_PAGES + 1)],
    ["CONTENT_IMPORT_MAX_BYTES", "lots"],
    ["CONTENT_IMPORT_ZIP_MAX_ENTRIES", "0"],
    ["CONTENT_IMPORT_ZIP_MAX_RATIO", "many"],
    ["CONTENT_IMPORT_TIMEOUT_MS", "-5"],
    ["CONTENT_IMPORT_ALLOW_PRIVATE", "localhost:80"],
    ["CONTENT_IMPORT_ALLOW_PRIVATE", "127.0.0.1"],
  ])("%s=%s is refused, naming the variable", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });

  test("MAX_TOKENS_PER_USER and the SSO_DNS_* variables are read, and a bad value names its variable", () => {
    const cfg = loadConfig({ MAX_TOKENS_PER_USER: "3", SSO_DNS_SERVERS: "127.0.0.1:5353, 10.0.0.2, [::1]:53, ::1", SSO_DNS_TIMEOUT_MS: "250" });
    expect(cfg.maxTokensPerUser).toBe(3);
    expect(cfg.ssoDomains).toEqual({ dnsServers: ["127.0.0.1:5353", "10.0.0.2", "[::1]:53", "::1"], dnsTimeoutMs: 250 });
    for (const [name, value] of [["MAX_TOKENS_PER_USER", "0"], ["SSO_DNS_SERVERS", "dns.example.com"], ["SSO_DNS_SERVERS", "999.1.1.1:53"], ["SSO_DNS_TIMEOUT_MS", "5s"]]) {
      expect(() => loadConfig({ [name]: value })).toThrow(name);
    }
  });

  test("the OPENAPI_* variables are read, and a bad value names its variable", () => {
    expect(loadConfig({ OPENAPI_FETCH_TIMEOUT_MS: "500", OPENAPI_MAX_BYTES: "1024", OPENAPI_FETCH_ALLOW_PRIVATE: "127.0.0.1:8081, [::1]:9000" }).openapi).toMatchObject({
      fetchTimeoutMs: 500,
      maxBytes: 1024,
      fetchAllowPrivate: ["127.0.0.1:8081", "[::1]:9000"],
    });
    for (const [name, value] of [["OPENAPI_FETCH_TIMEOUT_MS", "soon"], ["OPENAPI_MAX_BYTES", "-1"], ["OPENAPI_REFRESH_INTERVAL_MS", "1.5"], ["OPENAPI_FETCH_ALLOW_PRIVATE", "localhost:80"], ["OPENAPI_FETCH_ALLOW_PRIVATE", "127.0.0.1"]]) {
      expect(() => loadConfig({ [name]: value })).toThrow(name);
    }
  });

  test("SITE_HOSTNAME_SUFFIXES takes dotted domains, lower-cased, and refuses anything else", () => {
    expect(loadConfig({ SITE_HOSTNAME_SUFFIXES: "Sites.Example.com, .docs.example.org" }).siteHostnameSuffixes).toEqual(["sites.example.com", "docs.example.org"]);
    for (const value of ["localhost", "a b.example.com", "*.example.com", "example.com/x"]) {
      expect(() => loadConfig({ SITE_HOSTNAME_SUFFIXES: value })).toThrow("SITE_HOSTNAME_SUFFIXES");
    }
  });

  test("TRUSTED_PROXIES takes addresses and CIDRs of both families and refuses anything else", () => {
    expect(loadConfig({ TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8,::1,fd00::/8" }).trustedProxies).toEqual(["127.0.0.1", "10.0.0.0/8", "::1", "fd00::/8"]);
    for (const bad of ["localhost", "10.0.0.0/33", "10.0.0.1/8/2", "::1/129"]) {
      expect(() => loadConfig({ TRUSTED_PROXIES: bad })).toThrow(/TRUSTED_PROXIES/);
    }
  });

  test("every variable that is set but empty takes its default", () => {
    const empty = Object.fromEntries(VARIABLES.map((v) => [v.name, ""]));
    expect(loadConfig(empty)).toEqual(loadConfig({}));
  });

  test("the configuration is frozen", () => {
    expect(Object.isFrozen(loadConfig({}))).toBe(true);
  });

  test("every variable is documented with a default and a reason", () => {
    for (const v of VARIABLES) {
      expect(v.name).toMatch(/^[A-Z_]+$/);
      expect(typeof v.default).toBe("string");
      expect(v.why.length).toBeGreaterThan(10);
    }
    expect(new Set(VARIABLES.map((v) => v.name)).size).toBe(VARIABLES.length);
  });
});

describe("observability variables", () => {
  test("METRICS_PORT, HEALTH_PORT, TRACING_EXPORTER and ZIPKIN_URL are read and a bad value names its variable", () => {
    expect(loadConfig({ METRICS_PORT: "9100", HEALTH_PORT: "8081", TRACING_EXPORTER: "zipkin", ZIPKIN_URL: "http://zipkin:9411/" })).toMatchObject({
      metricsPort: 9100,
      healthPort: 8081,
      tracingExporter: "zipkin",
      zipkinUrl: "http://zipkin:9411",
    });
    expect(() => loadConfig({ METRICS_PORT: "70000" })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ HEALTH_PORT: "x" })).toThrow(/HEALTH_PORT/);
    expect(() => loadConfig({ TRACING_EXPORTER: "jaeger" })).toThrow(/TRACING_EXPORTER/);
    expect(() => loadConfig({ ZIPKIN_URL: "zipkin:9411" })).toThrow(/ZIPKIN_URL/);
  });

  test("OpenTelemetry's OTEL_* variables: an endpoint turns OTLP on, the signal's own endpoint wins, headers parsed and never echoed", () => {
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" })).toMatchObject({
      tracingExporter: "otlp",
      otlp: { tracesUrl: "http://collector:4318/v1/traces", headers: {}, serviceName: "", timeoutMs: 10000, scheduleDelayMs: 5000 },
    });
    const cfg = loadConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example.com/api/traces",
      OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=ignored",
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: "X-Api-Key=s%3Dcret, x-tenant = docs",
      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: "2500",
      OTEL_SERVICE_NAME: "docs-prod",
    });
    expect(cfg.otlp).toEqual({ tracesUrl: "https://traces.example.com/api/traces", headers: { "x-api-key": "s=cret", "x-tenant": "docs" }, serviceName: "docs-prod", timeoutMs: 2500, scheduleDelayMs: 5000 });
    // An endpoint does not override an explicit choice.
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", TRACING_EXPORTER: "none" }).tracingExporter).toBe("none");
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_EXPORTER_OTLP_HEADERS: "novalue-secret" })).toThrow(/OTEL_EXPORTER_OTLP_HEADERS/);
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_EXPORTER_OTLP_HEADERS: "k=%E0%A4%A-secret" })).toThrow(/OTEL_EXPORTER_OTLP_HEADERS/);
    try {
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_EXPORTER_OTLP_HEADERS: "k=%E0%A4%A-secret" });
    } catch (err) {
      expect(String(err)).not.toContain("secret");
    }
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_TIMEOUT: "0" })).toThrow(/OTEL_EXPORTER_OTLP_TIMEOUT/);
  });
});

describe("values", () => {
  test("set variables are read", () => {
    const cfg = loadConfig({
      PORT: "9000",
      HOST: "127.0.0.1",
      PUBLIC_URL: "https://docs.example.com/",
      DATA_DIR: "/var/lib/docshelf",
      MONGO_URL: "mongodb://db:27017/docshelf",
      TRANSPORTER: "nats://127.0.0.1:4222",
      NAMESPACE: "prod",
      NODE_ID: "node-1",
      LOGLEVEL: "debug",
      ADMIN_TOKEN: "3f9c1a7e5b2d48c0a6e1f7b9d3c5e8a1",
      ADMIN_EMAIL: "Root@Example.COM",
      REQUEST_TIMEOUT_MS: "2500",
      AUTH_CACHE_TTL_MS: "0",
      JSON_BODY_LIMIT_BYTES: "2048",
    });
    expect(cfg).toMatchObject({
      port: 9000,
      host: "127.0.0.1",
      publicUrl: "https://docs.example.com",
      dataDir: "/var/lib/docshelf",
      mongoUrl: "mongodb://db:27017/docshelf",
      transporter: "nats://127.0.0.1:4222",
      namespace: "prod",
      nodeId: "node-1",
      logLevel: "debug",
      adminToken: "3f9c1a7e5b2d48c0a6e1f7b9d3c5e8a1",
      adminEmail: "root@example.com",
      requestTimeoutMs: 2500,
      authCacheTtlMs: 0,
      jsonBodyLimitBytes: 2048,
    });
  });

  test("PUBLIC_URL defaults to localhost on PORT", () => {
    expect(loadConfig({ PORT: "3000" }).publicUrl).toBe("http://localhost:3000");
  });

  test("PUBLIC_URL keeps its path and loses trailing slashes", () => {
    expect(loadConfig({ PUBLIC_URL: "https://example.com/docs///" }).publicUrl).toBe("https://example.com/docs");
  });

  test("PORT 0 asks for any free port", () => {
    expect(loadConfig({ PORT: "0" }).port).toBe(0);
  });

  test("TRANSPORTER accepts nats URLs with credentials and Fake", () => {
    expect(loadConfig({ TRANSPORTER: "nats://user:pass@nats:4222" }).transporter).toBe("nats://user:pass@nats:4222");
    expect(loadConfig({ TRANSPORTER: "Fake" }).transporter).toBe("Fake");
    expect(loadConfig({ TRANSPORTER: "Fake" }).nats).toBeNull();
  });
});

describe("NATS credentials", () => {
  const dir = mkdtempSync(join(tmpdir(), "config-nats-"));
  const creds = join(dir, "user.creds");
  writeFileSync(creds, "-----BEGIN NATS USER JWT-----\n...\n");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("TRANSPORTER's servers, without credentials, and its percent-decoded user and password", () => {
    expect(loadConfig({ TRANSPORTER: "nats://docshelf:p%40ss%2Fw@nats-0:4222,nats://docshelf:p%40ss%2Fw@nats-1:4222" }).nats).toEqual({
      servers: ["nats-0:4222", "nats-1:4222"],
      streamReplicas: 1,
      user: "docshelf",
      pass: "p@ss/w",
    });
    expect(loadConfig({ TRANSPORTER: "nats://127.0.0.1:4222" }).nats).toEqual({ servers: ["127.0.0.1:4222"], streamReplicas: 1 });
    expect(loadConfig({ TRANSPORTER: "nats://127.0.0.1:4222", NATS_STREAM_REPLICAS: "3" }).nats?.streamReplicas).toBe(3);
    expect(configError({ TRANSPORTER: "nats://127.0.0.1:4222", NATS_STREAM_REPLICAS: "0" }).message).toContain("NATS_STREAM_REPLICAS");
  });

  test("every NATS client of a process tries a lost server again every 250 ms (nats.js waits 2 s), and never gives up", () => {
    const options = natsConnectionOptions(loadConfig({ TRANSPORTER: "nats://u:pw@nats-0:4222,nats://u:pw@nats-1:4222" }).nats!);
    // nats.js's own default is 10 attempts, then closed for good: the JetStream channels took these options as they are.
    expect(options).toMatchObject({ servers: ["nats-0:4222", "nats-1:4222"], user: "u", pass: "pw", reconnectTimeWait: 250, maxReconnectAttempts: -1 });
  });

  test("a token, a creds file or an nkey seed file is the way to log in", () => {
    expect(loadConfig({ TRANSPORTER: "nats://nats:4222", NATS_TOKEN: "s3cret" }).nats).toEqual({ servers: ["nats:4222"], streamReplicas: 1, token: "s3cret" });
    expect(loadConfig({ TRANSPORTER: "nats://nats:4222", NATS_CREDS_FILE: creds }).nats).toEqual({ servers: ["nats:4222"], streamReplicas: 1, credsFile: creds });
    expect(loadConfig({ TRANSPORTER: "nats://nats:4222", NATS_NKEY_SEED_FILE: creds }).nats).toEqual({ servers: ["nats:4222"], streamReplicas: 1, nkeySeedFile: creds });
  });

  test.each([
    [{ TRANSPORTER: "nats://u:pw-secret@nats:4222", NATS_TOKEN: "tok-secret" }, "one way to log in"],
    [{ TRANSPORTER: "nats://nats:4222", NATS_TOKEN: "tok-secret", NATS_CREDS_FILE: "/x" }, "one way to log in"],
    [{ TRANSPORTER: "nats://onlyuser-secret@nats:4222" }, "both a user and a password"],
    [{ TRANSPORTER: "nats://u:pw-secret@a:4222,nats://u:other-secret@b:4222" }, "same user and password"],
    [{ TRANSPORTER: "nats://u:pw-secret@nats:4222/path" }, "TRANSPORTER must be nats://host:port"],
    [{ TRANSPORTER: "nats://nats:4222,http://x-secret" }, "entry 2"],
    [{ TRANSPORTER: "nats://nats:4222", NATS_CREDS_FILE: "/nonexistent/user.creds" }, "NATS_CREDS_FILE must name a readable file"],
    [{ TRANSPORTER: "nats://nats:4222", NATS_NKEY_SEED_FILE: "/nonexistent/seed" }, "NATS_NKEY_SEED_FILE must name a readable file"],
    [{ NATS_TOKEN: "tok-secret" }, "NATS_TOKEN is set but TRANSPORTER is not"],
  ])("%p is a ConfigError (%s) that repeats no credential", (env, message) => {
    const err = configError(env);
    expect(err.message).toContain(message);
    expect(err.message).not.toMatch(/secret/);
  });
});

describe("SERVICES", () => {
  test.each([
    ["all", [...ALL_SERVICES]],
    ["gateway", ["gateway"]],
    ["identity,orgs", ["identity", "orgs"]],
    [" content , gateway ", ["content", "gateway"]],
    ["orgs,all", [...ALL_SERVICES]],
    ["orgs,,orgs,identity", ["orgs", "identity"]],
  ])("SERVICES=%p runs %p", (services, expected) => {
    expect(loadConfig({ SERVICES: services }).services).toEqual(expected);
  });

  test("an unknown service is a ConfigError naming SERVICES and the service", () => {
    const err = configError({ SERVICES: "gateway,billing" });
    expect(err.message).toContain("SERVICES");
    expect(err.message).toContain("billing");
  });
});

describe("invalid values", () => {
  test.each([
    ["PORT", "http"],
    ["PORT", "-1"],
    ["PORT", "65536"],
    ["PORT", "80.5"],
    ["PORT", "0x50"],
    ["PORT", "8e3"],
    ["PUBLIC_URL", "docs.example.com"],
    ["PUBLIC_URL", "localhost:8080"],
    ["PUBLIC_URL", "ftp://example.com"],
    ["TRANSPORTER", "redis://localhost:6379"],
    ["TRANSPORTER", "TCP"],
    ["LOGLEVEL", "verbose"],
    ["REQUEST_TIMEOUT_MS", "99"],
    ["REQUEST_TIMEOUT_MS", "600001"],
    ["REQUEST_TIMEOUT_MS", "ten seconds"],
    ["AUTH_CACHE_TTL_MS", "-5"],
    ["AUTH_CACHE_TTL_MS", "3600001"],
    ["JSON_BODY_LIMIT_BYTES", "1023"],
    ["JSON_BODY_LIMIT_BYTES", "1mb"],
  ])("%s=%p is a ConfigError naming the variable", (name, value) => {
    const err = configError({ [name]: value });
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message.startsWith(name)).toBe(true);
  });

  test("a TRANSPORTER with credentials is refused without echoing them", () => {
    for (const url of ["redis://admin:hunter2@cache:6379", "amqp://admin:p@ss@rabbit:5672/vhost", "mqtt://admin:hunter2@broker"]) {
      const err = configError({ TRANSPORTER: url });
      expect(err.message).toContain("TRANSPORTER");
      expect(err.message).not.toContain("admin");
      expect(err.message).not.toContain("hunter2");
      expect(err.message).not.toContain("ss@");
    }
  });
});

describe("ADMIN_TOKEN", () => {
  test.each([
    ["change-me"],
    ["changeme"],
    ["CHANGE_ME"],
    ["admin"],
    ["secret"],
    ["password"],
    ["change-me-change-me-change-me-change-me"],
    ["please-replace-me-with-a-long-random-value"],
  ])("the placeholder %p is refused, naming the variable and how to make one", (token) => {
    const err = configError({ ADMIN_TOKEN: token });
    expect(err.problems).toHaveLength(1);
    expect(err.message).toMatch(/^ADMIN_TOKEN is a placeholder/);
    expect(err.message).toContain("openssl rand -hex 32");
  });

  test.each([["a1b2c3"], ["0123456789abcdef0123456789abcde"]])("%p, shorter than 32 characters, is refused without being repeated", (token) => {
    const err = configError({ ADMIN_TOKEN: token });
    expect(err.message).toBe(`ADMIN_TOKEN must be at least 32 characters long, got ${token.length}; make one with: openssl rand -hex 32`);
    expect(err.message).not.toContain(token);
  });

  test("a token the gateway could not take as a Bearer token, or of one repeated character, is refused", () => {
    expect(configError({ ADMIN_TOKEN: "0123456789abcdef 0123456789abcdef" }).message).toMatch(/^ADMIN_TOKEN must be at most 256 letters/);
    expect(configError({ ADMIN_TOKEN: "x".repeat(257) }).message).toMatch(/^ADMIN_TOKEN must be at most 256 letters/);
    expect(configError({ ADMIN_TOKEN: "ab".repeat(20) }).message).toMatch(/^ADMIN_TOKEN repeats too few different characters/);
  });

  test("32 random hex characters (openssl rand -hex 32 gives 64), base64 and the tests' dsk_ tokens are accepted; unset is allowed", () => {
    for (const token of ["3f9c1a7e5b2d48c0a6e1f7b9d3c5e8a1", "3f9c1a7e5b2d48c0a6e1f7b9d3c5e8a13f9c1a7e5b2d48c0a6e1f7b9d3c5e8a1", "q8Zk3+T0pW1/x9Lr2bN6yV5cD4hJ7mQeRfGsAaBbCcU=", "dsk_Xq3v9Zt2pL8kN4wR6yB1cF5hJ0mS7dGa"]) {
      expect(loadConfig({ ADMIN_TOKEN: token }).adminToken).toBe(token);
    }
    expect(loadConfig({}).adminToken).toBe("");
  });
});

describe("every problem at once", () => {
  test("all bad variables are reported together in one error, one per line", () => {
    const err = configError({ PORT: "http", LOGLEVEL: "verbose", ADMIN_TOKEN: "change-me", SERVICES: "billing", TRUSTED_PROXIES: "nope" });
    expect(err.problems.map((p) => p.split(" ")[0])).toEqual(["PORT", "ADMIN_TOKEN", "SERVICES", "LOGLEVEL", "TRUSTED_PROXIES"]);
    expect(err.message.split("\n")).toEqual(["5 problems:", ...err.problems.map((p) => `  - ${p}`)]);
  });
});

describe("configFor", () => {
  test("a broker bound to a configuration reads that one", () => {
    const broker = {};
    const cfg = loadConfig({ PORT: "1234" });
    bindConfig(broker, cfg);
    expect(configFor(broker)).toBe(cfg);
  });
});

describe("worker threads", () => {
  test("WORKER_* set the pool's limits; WORKER_THREADS 0 means one less than the cores, at least 1, at most 2", () => {
    const cfg = loadConfig({ WORKER_THREADS: "3", WORKER_TASK_TIMEOUT_MS: "5000", WORKER_MEMORY_MB: "128", WORKER_MAX_QUEUE: "0", WORKER_ORG_CONCURRENCY: "2" });
    expect(cfg.workers).toEqual({ threads: 3, taskTimeoutMs: 5000, memoryMb: 128, maxQueue: 0, orgConcurrency: 2, isolation: "thread" });
    expect(loadConfig({ WORKER_ISOLATION: "process" }).workers.isolation).toBe("process");
    expect(() => loadConfig({ WORKER_ISOLATION: "fork" })).toThrow('WORKER_ISOLATION must be one of thread, process, got "fork"');
    expect(loadConfig({ WORKER_THREADS: "0" }).workers.threads).toBe(Math.max(1, Math.min(2, availableParallelism() - 1)));
  });

  test("out-of-range values are refused, naming the variable", () => {
    expect(() => loadConfig({ WORKER_MEMORY_MB: "1" })).toThrow('WORKER_MEMORY_MB must be an integer between 16 and 65536, got "1"');
    expect(() => loadConfig({ WORKER_TASK_TIMEOUT_MS: "-5" })).toThrow("WORKER_TASK_TIMEOUT_MS must be an integer between 100 and 86400000");
    expect(() => loadConfig({ WORKER_ORG_CONCURRENCY: "0" })).toThrow("WORKER_ORG_CONCURRENCY must be an integer between 1 and 256");
  });
});
