import { SafeFetchError, type Resolver } from "@docshelf/safe-fetch";
import { checkedAddress } from "./git-http";

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
