import { readFileSync } from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import tls from "node:tls";
import { SafeFetchError } from "./errors";
import type { Resolver } from "./resolve";
import { safeFetch } from "./safe-fetch";

const fixture = (name: string) => readFileSync(path.join(__dirname, "__tests__/tls", name), "utf8");
const cert = fixture("docs.test.cert.pem");
const key = fixture("docs.test.key.pem");
const toLoopback: Resolver = async () => [{ address: "127.0.0.1", family: 4 }];
const onlyTestListener = (address: string) => address === "127.0.0.1";

let server: https.Server;
let port: number;
let connections = 0;
const defaultCAs = tls.getCACertificates("default");

beforeAll(async () => {
  tls.setDefaultCACertificates([...defaultCAs, cert]);
  server = https.createServer({ key, cert }, (req, res) => res.end(`hello ${req.headers.host}`));
  server.on("secureConnection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  tls.setDefaultCACertificates(defaultCAs);
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("safeFetch over https", () => {
  it("connects to the checked address while verifying the certificate for the URL's host name", async () => {
    const res = await safeFetch(`https://docs.test:${port}/`, { resolver: toLoopback, isAllowedAddress: onlyTestListener });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe(`hello docs.test:${port}`);
  });

  it("fails when the certificate does not name the URL's host", async () => {
    const err = await safeFetch(`https://other.test:${port}/`, { resolver: toLoopback, isAllowedAddress: onlyTestListener }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SafeFetchError);
    expect((err as SafeFetchError).reason).toBe("fetch-failed");
    expect((err as SafeFetchError).message).toContain("ERR_TLS_CERT_ALTNAME_INVALID");
  });

  it("refuses a private https host before any TLS handshake", async () => {
    const before = connections;
    const err = await safeFetch(`https://docs.test:${port}/`, { resolver: toLoopback }).catch((e: unknown) => e);
    expect((err as SafeFetchError).reason).toBe("private-address");
    expect(connections).toBe(before);
  });
});
