// Part of the store contract (index.ts) — Blobs: content-addressed bytes beside the documents.
import { newId } from "../ids";
import { sha256Of } from "../blobs";
import { type ContractOptions, type Harness } from "./harness";

export function blobsContract(h: Harness, options: ContractOptions): void {
  const { openStore, uniqueName } = h;
  describe("blobs", () => {
    async function read(stream: NodeJS.ReadableStream): Promise<Buffer> {
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
      return Buffer.concat(chunks);
    }

    test("bytes are stored once under their SHA-256 and read back whole, also across GridFS chunk sizes", async () => {
      const blobs = (await openStore()).blobs(uniqueName());
      const small = Buffer.from(`hello ${newId()}`);
      const large = Buffer.alloc(600 * 1024 + 17, newId()); // more than two 255 KiB GridFS chunks
      const a = await blobs.put(small);
      expect(a).toBe(sha256Of(small));
      expect(await blobs.put(Buffer.from(small))).toBe(a);
      expect(await blobs.has(a)).toBe(true);
      expect((await read(blobs.open(a))).equals(small)).toBe(true);
      const b = await blobs.put(large);
      expect((await read(blobs.open(b))).equals(large)).toBe(true);
      await blobs.remove(a);
      await blobs.remove(b);
    });

    test("has is false for a missing blob and for a name that is not a SHA-256, and remove takes a blob away", async () => {
      const blobs = (await openStore()).blobs(uniqueName());
      expect(await blobs.has("0".repeat(64))).toBe(false);
      expect(await blobs.has("../../etc/passwd")).toBe(false);
      expect(() => blobs.open("../x")).toThrow();
      const sha = await blobs.put(Buffer.from(newId()));
      await blobs.remove(sha);
      expect(await blobs.has(sha)).toBe(false);
      await blobs.remove(sha); // twice is fine
    });

    if (options.persistent) {
      test("a blob one store wrote is read by another store on the same data (a replica, or after a restart)", async () => {
        const name = uniqueName();
        const bytes = Buffer.from(`shared ${newId()}`);
        const sha = await (await openStore()).blobs(name).put(bytes);
        const other = (await openStore()).blobs(name);
        expect(await other.has(sha)).toBe(true);
        expect((await read(other.open(sha))).equals(bytes)).toBe(true);
        await other.remove(sha);
      });
    }
  });
}
