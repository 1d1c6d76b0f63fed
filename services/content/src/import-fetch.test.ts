import { SafeFetchError } from "@docshelf/safe-fetch";
import { importFetch } from "./import-fetch";

describe("importFetch", () => {
  test.each(["[::ffff:127.0.0.1]", "[::ffff:10.0.0.1]", "[::1]", "0.0.0.0", "169.254.169.254", "[fc00::1]", "[fdff::1]", "100.64.0.1"])(
    "refuses a page on %s as private, even with an allowance for another port",
    async (host) => {
      const err = await importFetch(["127.0.0.1:8081"])(`http://${host}:8082/`, { timeoutMs: 1000, maxBytes: 1000, accept: "text/html", redirect: "manual" }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SafeFetchError);
      expect((err as SafeFetchError).reason).toBe("private-address");
    },
  );
});
