import { SafeFetchError, type Resolver } from "@docshelf/safe-fetch";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { checkedAddress, safeGitHttp } from "./git-http";

const limits = { requestTimeoutMs: 1000, maxResponseBytes: 1000, allowedPrivateTargets: [] as string[] };
const answering = (...addresses: string[]): Resolver => async () => addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

async function refusal(url: string, resolver?: Resolver, allowedPrivateTargets: string[] = []): Promise<SafeFetchError> {
  const err = await checkedAddress(new URL(url), { ...limits, allowedPrivateTargets, ...(resolver ? { resolver } : {}) }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(SafeFetchError);
  return err as SafeFetchError;
}

describe("the Git remote's address check", () => {
  test.each([
    "http://[::ffff:127.0.0.1]/repo.git",
    "http://[::ffff:10.0.0.1]/repo.git",
    "http://[::1]/repo.git",
    "http://0.0.0.0/repo.git",
    "http://169.254.169.254/repo.git",
    "http://[fc00::1]/repo.git",
    "http://[fdff::1]/repo.git",
    "http://100.64.0.1/repo.git",
  ])("refuses the literal %s", async (url) => {
    expect((await refusal(url)).reason).toBe("private-address");
  });

  test.each(["::ffff:127.0.0.1", "::ffff:10.0.0.1", "::1", "0.0.0.0", "169.254.169.254", "fc00::1", "100.64.0.1"])(
    "refuses a host name that resolves to %s, even next to a public address",
    async (address) => {
      expect((await refusal("https://git.example.com/repo.git", answering("93.184.216.34", address))).reason).toBe("private-address");
    },
  );

  test("an allowance for a loopback test server admits exactly that IP:port, however the address is written", async () => {
    const allowed = { ...limits, allowedPrivateTargets: ["127.0.0.1:8081"] };
    await expect(checkedAddress(new URL("http://127.0.0.1:8081/r.git"), allowed)).resolves.toEqual({ address: "127.0.0.1", family: 4 });
    await expect(checkedAddress(new URL("http://[::ffff:127.0.0.1]:8081/r.git"), allowed)).resolves.toEqual({ address: "::ffff:7f00:1", family: 6 });
    expect((await refusal("http://127.0.0.1:8082/r.git", undefined, ["127.0.0.1:8081"])).reason).toBe("private-address");
    expect((await refusal("http://[::ffff:10.0.0.1]:8081/r.git", undefined, ["127.0.0.1:8081"])).reason).toBe("private-address");
  });

  test("only http and https", async () => {
    expect((await refusal("file:///etc/passwd")).reason).toBe("scheme");
  });
});

describe("the Git HTTP client's answers", () => {
  let server: Server;
  let port: number;
  let release: () => void = () => undefined;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/refs") return void res.writeHead(200, { "content-type": "application/x-git-upload-pack-advertisement" }).end("0000");
      res.writeHead(200, { "content-type": "application/x-git-upload-pack-result" });
      res.write(Buffer.alloc(600, 1));
      if (req.url === "/stall") return; // half a pack, then nothing
      // The rest only once the client has read the first part: the body is handed over as it arrives.
      release = () => res.end(Buffer.alloc(600, 2));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const client = (over: Partial<typeof limits> = {}) => safeGitHttp({ ...limits, maxResponseBytes: 10_000, allowedPrivateTargets: [`127.0.0.1:${port}`], ...over });
  async function read(body: AsyncIterableIterator<Uint8Array> | undefined): Promise<Buffer[]> {
    const parts: Buffer[] = [];
    for await (const chunk of body!) {
      parts.push(Buffer.from(chunk));
      if (parts.length === 1) release();
    }
    return parts;
  }

  test("a packfile arrives as it comes, in more than one part; other answers whole", async () => {
    const res = await client().request({ url: `http://127.0.0.1:${port}/pack`, method: "POST", headers: {} });
    const parts = await read(res.body);
    expect(parts.length).toBeGreaterThan(1);
    expect(Buffer.concat(parts)).toEqual(Buffer.concat([Buffer.alloc(600, 1), Buffer.alloc(600, 2)]));
    const refs = await client().request({ url: `http://127.0.0.1:${port}/refs`, method: "GET", headers: {} });
    expect((await read(refs.body)).map(String)).toEqual(["0000"]);
  });

  test("the size limit holds while a packfile is read", async () => {
    const res = await client({ maxResponseBytes: 1000 }).request({ url: `http://127.0.0.1:${port}/pack`, method: "POST", headers: {} });
    const err = await read(res.body).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SafeFetchError);
    expect((err as SafeFetchError).reason).toBe("too-large");
  });

  test("the request timeout holds while a packfile is read", async () => {
    const res = await client({ requestTimeoutMs: 300 }).request({ url: `http://127.0.0.1:${port}/stall`, method: "POST", headers: {} });
    const err = await read(res.body).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SafeFetchError);
    expect((err as SafeFetchError).reason).toBe("timeout");
  });
});
