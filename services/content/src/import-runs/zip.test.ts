import { deflateRawSync } from "node:zlib";
import { strToU8, zipSync } from "fflate";
import { listZip, readZip, safeEntryPath } from "./zip";
import { craftZip, deflatedZeros } from "./__tests__/zip-craft";

const LIMITS = { maxEntries: 10, maxUncompressedBytes: 1024 * 1024, maxRatio: 100 };

describe("readZip", () => {
  test("reads Markdown entries at their folder paths, leaving folders, hidden files and __MACOSX out", async () => {
    const zip = zipSync({ "README.md": strToU8("# Home"), "guides/": {}, "guides/install.md": strToU8("# Install"), ".DS_Store": strToU8("x"), "__MACOSX/._a.md": strToU8("x") });
    const entries = await readZip(zip, "source.files[0]", LIMITS);
    expect(entries.map((e) => e.path).sort()).toEqual(["README.md", "guides/install.md"]);
    expect(entries.find((e) => e.path === "README.md")!.bytes.toString()).toBe("# Home");
  });

  test("reads deflated and stored entries of any size within the limits, byte for byte", async () => {
    const text = Array.from({ length: 20_000 }, (_, i) => `line ${i} of the page ${(i * 7919) % 1000}`).join("\n");
    const zip = zipSync({ "deflated.md": strToU8(text), "stored.md": [strToU8(text.slice(0, 5000)), { level: 0 }] }, { level: 6 });
    const entries = await readZip(zip, "f", { ...LIMITS, maxEntries: 10 });
    expect(entries.find((e) => e.path === "deflated.md")!.bytes.toString()).toBe(text);
    expect(entries.find((e) => e.path === "stored.md")!.bytes.toString()).toBe(text.slice(0, 5000));
  });

  test.each(["../evil.md", "a/../../evil.md", "/etc/passwd", "C:/x.md", "a\\..\\..\\x.md"])("refuses the whole archive when an entry is named %s (400 naming the field)", async (name) => {
    const zip = zipSync({ "ok.md": strToU8("ok"), [name]: strToU8("bad") });
    expect(() => listZip(zip, "source.files[2]", LIMITS)).toThrow(/'source\.files\[2\]'.*outside the archive/);
    await expect(readZip(zip, "source.files[2]", LIMITS)).rejects.toThrow(/'source\.files\[2\]'.*outside the archive/);
  });

  test("refuses too many entries, too many bytes once decompressed and a zip bomb's ratio", () => {
    const many: Record<string, Uint8Array> = {};
    for (let i = 0; i < 11; i++) many[`p${i}.md`] = strToU8(`page ${i}`);
    expect(() => listZip(zipSync(many), "f", LIMITS)).toThrow(/more than 10 entries/);
    const big = zipSync({ "big.md": new Uint8Array(2 * 1024 * 1024).fill(65) }, { level: 0 });
    expect(() => listZip(big, "f", LIMITS)).toThrow(/more than 1048576 bytes/);
    const bomb = zipSync({ "zeros.md": new Uint8Array(1000 * 1000) }, { level: 9 });
    expect(() => listZip(bomb, "f", LIMITS)).toThrow(/decompresses over 100 times/);
  });

  test("entries whose directory records share one entry's data are refused before anything is decompressed", () => {
    const data = deflateRawSync(Buffer.from("# Shared"));
    const zip = craftZip([{ name: "a.md", data, method: 8 }], [0, 1, 2].map((i) => ({ name: `copy-${i}.md`, record: 0, size: 8 })));
    expect(() => listZip(zip, "source.files[0]", LIMITS)).toThrow(/'source\.files\[0\]': the ZIP entries "copy-\d\.md" and "copy-\d\.md" share their data/);
    // Distinct records: the same archive shape is fine.
    const apart = craftZip([0, 1, 2].map((i) => ({ name: `copy-${i}.md`, data, method: 8 as const })), [0, 1, 2].map((i) => ({ name: `copy-${i}.md`, record: i, size: 8 })));
    expect(listZip(apart, "f", LIMITS)).toHaveLength(3);
  });

  test("the issue's attack (directory entries sharing 600 MB of deflated zeros, each declared 100 bytes) fails at once", async () => {
    const zeros = deflatedZeros(600);
    const zip = craftZip([{ name: "zeros.md", data: zeros, method: 8 }], Array.from({ length: 6 }, (_, i) => ({ name: `page-${i}.md`, record: 0, size: 100 })));
    const started = Date.now();
    await expect(readZip(zip, "f", LIMITS)).rejects.toThrow(/share their data/);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  test("an entry that decompresses past its declared size is refused as soon as it does, naming the entry and the size", async () => {
    // 600 MB of zeros declared 100 bytes: fflate's unzipSync inflated all of it (seconds per entry).
    const zip = craftZip([{ name: "liar.md", data: deflatedZeros(600), method: 8 }], [{ name: "liar.md", record: 0, size: 100 }]);
    const started = Date.now();
    await expect(readZip(zip, "source.files[0]", LIMITS)).rejects.toThrow(/'source\.files\[0\]': the ZIP entry "liar\.md" decompresses to more than the 100 bytes its directory declares/);
    expect(Date.now() - started).toBeLessThan(1000);
    // A smaller declared size than the data (fflate cut such entries short): refused too, not truncated.
    const short = craftZip([{ name: "a.md", data: deflateRawSync(Buffer.from("0123456789abcdef")), method: 8 }], [{ name: "a.md", record: 0, size: 10 }]);
    await expect(readZip(short, "f", LIMITS)).rejects.toThrow(/"a\.md" decompresses to more than the 10 bytes/);
    const long = craftZip([{ name: "a.md", data: deflateRawSync(Buffer.from("0123")), method: 8 }], [{ name: "a.md", record: 0, size: 10 }]);
    await expect(readZip(long, "f", LIMITS)).rejects.toThrow(/"a\.md" is damaged: it decompresses to 4 bytes, its directory declares 10/);
  });

  test("reading leaves the event loop free (zlib on its thread pool), and stops at its time budget naming the entry", async () => {
    const zeros = deflatedZeros(40);
    const zip = craftZip([0, 1, 2].map((i) => ({ name: `big-${i}.md`, data: zeros, method: 8 as const })), [0, 1, 2].map((i) => ({ name: `big-${i}.md`, record: i, size: 40 * 1024 * 1024 })));
    const limits = { maxEntries: 10, maxUncompressedBytes: 200 * 1024 * 1024, maxRatio: 100_000 };
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const entries = await readZip(zip, "f", limits);
    clearInterval(timer);
    expect(entries.map((e) => e.bytes.length)).toEqual([40 * 1024 * 1024, 40 * 1024 * 1024, 40 * 1024 * 1024]);
    expect(entries[0].bytes.every((b) => b === 0)).toBe(true);
    expect(ticks).toBeGreaterThan(0);
    await expect(readZip(zip, "source.files[1]", { ...limits, maxMillis: 1 })).rejects.toThrow(/'source\.files\[1\]': reading the ZIP took over 1 ms \(at the entry "big-\d\.md"\)/);
  }, 30_000);

  test("encrypted entries, unknown methods and stored entries whose sizes differ are refused by name", () => {
    const data = Buffer.from("plain");
    expect(() => listZip(craftZip([{ name: "s.md", data, method: 0 }], [{ name: "s.md", record: 0, size: 5, flags: 1 }]), "f", LIMITS)).toThrow(/"s\.md" is encrypted/);
    expect(() => listZip(craftZip([{ name: "s.md", data, method: 0 }], [{ name: "s.md", record: 0, size: 5, method: 12 }]), "f", LIMITS)).toThrow(/"s\.md" uses compression method 12/);
    expect(() => listZip(craftZip([{ name: "s.md", data, method: 0 }], [{ name: "s.md", record: 0, size: 4000 }]), "f", LIMITS)).toThrow(/"s\.md" is damaged: stored, yet its sizes differ/);
  });

  test("damaged deflate data is a 400 naming the entry", async () => {
    const zip = craftZip([{ name: "bad.md", data: Buffer.from([0xff, 0xff, 0xff, 0xff]), method: 8 }], [{ name: "bad.md", record: 0, size: 10 }]);
    await expect(readZip(zip, "f", LIMITS)).rejects.toThrow(/'f': the ZIP entry "bad\.md" is damaged/);
  });

  test("reads ZIP64 archives (sizes and offsets in the ZIP64 extra field and end record)", async () => {
    // Written by Info-ZIP's `zip -fz` (ZIP64 forced): a stored and a deflated entry.
    const zip64 = Buffer.from("UEsDBC0AAAAAAOOBfF0Abi2u//////////8EABQAYS5tZAEAEAANAAAAAAAAAA0AAAAAAAAAIyBTaXh0eS1mb3VyClBLAwQtAAAACADjgXxd0tn8dP//////////BgAUAGcvYi5tZAEAEAAdAAAAAAAAABMAAAAAAAAAU1ZwSU0t4OIKSa0oUShBIfS4AFBLAQIeAy0AAAAAAOOBfF0Abi2uDQAAAP////8EAAwAAAAAAAEAAACkgQAAAABhLm1kAQAIAA0AAAAAAAAAUEsBAh4DLQAAAAgA44F8XdLZ/HQTAAAA/////wYADAAAAAAAAQAAAKSBQwAAAGcvYi5tZAEACAAdAAAAAAAAAFBLBgYsAAAAAAAAAB4DLQAAAAAAAAAAAAIAAAAAAAAAAgAAAAAAAAB+AAAAAAAAAI4AAAAAAAAAUEsGBwAAAAAMAQAAAAAAAAEAAABQSwUGAAAAAAIAAgB+AAAA/////wAA", "base64");
    const entries = await readZip(zip64, "f", LIMITS);
    expect(entries.map((e) => [e.path, e.bytes.toString()])).toEqual([
      ["a.md", "# Sixty-four\n"],
      ["g/b.md", "# Deep\n\nText text text text.\n"],
    ]);
  });

  test("something that is not a ZIP is a 400", () => {
    expect(() => listZip(Buffer.from("PK not really a zip"), "source.files[0]", LIMITS)).toThrow(/'source\.files\[0\]': not a ZIP/);
    expect(() => listZip(Buffer.alloc(0), "source.files[0]", LIMITS)).toThrow(/'source\.files\[0\]': not a ZIP/);
  });

  test("safeEntryPath normalises separators and dots", () => {
    expect(safeEntryPath("a\\b/./c.md")).toBe("a/b/c.md");
    expect(safeEntryPath("a/..b/c.md")).toBe("a/..b/c.md");
    expect(safeEntryPath("../c.md")).toBeUndefined();
  });
});
