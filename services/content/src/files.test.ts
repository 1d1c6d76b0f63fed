import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileStore, signFileToken, verifyFileToken } from "./files";

describe("FileStore", () => {
  const dir = mkdtempSync(join(tmpdir(), "content-files-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("stores bytes once under their SHA-256 and reads them back", async () => {
    const store = new FileStore(dir);
    const a = store.put(Buffer.from("hello"));
    expect(store.put(Buffer.from("hello"))).toBe(a);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(join(dir, "content", "files", a), "utf8")).toBe("hello");
    expect(store.has(a)).toBe(true);
    expect(store.has("../etc/passwd")).toBe(false);
  });
});

describe("file tokens", () => {
  const claims = { sha256: "a".repeat(64), name: "logo.svg", contentType: "image/svg+xml" };

  test("a token verifies with its key and carries its claims", () => {
    expect(verifyFileToken("k", signFileToken("k", claims))).toEqual(claims);
  });

  test("another key, a changed body or garbage does not verify", () => {
    const token = signFileToken("k", claims);
    expect(verifyFileToken("other", token)).toBeNull();
    const forged = signFileToken("k", { ...claims, sha256: "b".repeat(64) }).split(".")[0] + "." + token.split(".")[1];
    expect(verifyFileToken("k", forged)).toBeNull();
    expect(verifyFileToken("k", "nonsense")).toBeNull();
    expect(verifyFileToken("k", "a.b.c")).toBeNull();
  });
});
