import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "@docshelf/store";
import { signFileToken, verifyFileToken } from "./files";

describe("file bytes on the embedded store", () => {
  const dir = mkdtempSync(join(tmpdir(), "content-files-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("stay where earlier versions kept them, DATA_DIR/content/files/<sha256>", async () => {
    const store = await openStore("content", { dataDir: dir });
    const files = store.blobs("files");
    const a = await files.put(Buffer.from("hello"));
    expect(await files.put(Buffer.from("hello"))).toBe(a);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(join(dir, "content", "files", a), "utf8")).toBe("hello");
    expect(await files.has(a)).toBe(true);
    expect(await files.has("../etc/passwd")).toBe(false);
    await store.close();
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
