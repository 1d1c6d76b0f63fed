import { strToU8, zipSync } from "fflate";
import { readZip, safeEntryPath } from "./zip";

const LIMITS = { maxEntries: 10, maxUncompressedBytes: 1024 * 1024, maxRatio: 100 };

describe("readZip", () => {
  test("reads Markdown entries at their folder paths, leaving folders, hidden files and __MACOSX out", () => {
    const zip = zipSync({ "README.md": strToU8("# Home"), "guides/": {}, "guides/install.md": strToU8("# Install"), ".DS_Store": strToU8("x"), "__MACOSX/._a.md": strToU8("x") });
    const entries = readZip(zip, "source.files[0]", LIMITS);
    expect(entries.map((e) => e.path).sort()).toEqual(["README.md", "guides/install.md"]);
    expect(entries.find((e) => e.path === "README.md")!.bytes.toString()).toBe("# Home");
  });

  test.each(["../evil.md", "a/../../evil.md", "/etc/passwd", "C:/x.md", "a\\..\\..\\x.md"])("refuses the whole archive when an entry is named %s (400 naming the field)", (name) => {
    const zip = zipSync({ "ok.md": strToU8("ok"), [name]: strToU8("bad") });
    expect(() => readZip(zip, "source.files[2]", LIMITS)).toThrow(/'source\.files\[2\]'.*outside the archive/);
  });

  test("refuses too many entries, too many bytes once decompressed and a zip bomb's ratio", () => {
    const many: Record<string, Uint8Array> = {};
    for (let i = 0; i < 11; i++) many[`p${i}.md`] = strToU8(`page ${i}`);
    expect(() => readZip(zipSync(many), "f", LIMITS)).toThrow(/more than 10 entries/);
    const big = zipSync({ "big.md": new Uint8Array(2 * 1024 * 1024).fill(65) }, { level: 0 });
    expect(() => readZip(big, "f", LIMITS)).toThrow(/more than 1048576 bytes/);
    const bomb = zipSync({ "zeros.md": new Uint8Array(1000 * 1000) }, { level: 9 });
    expect(() => readZip(bomb, "f", LIMITS)).toThrow(/decompresses over 100 times/);
  });

  test("a directory that lies about an entry's size gets the entry cut at the declared size, never more memory", () => {
    const lie = (zip: Buffer) => {
      for (let i = 0; i < zip.length - 4; i++) if (zip.readUInt32LE(i) === 0x02014b50) zip.writeUInt32LE(10, i + 24);
      return zip;
    };
    const [deflated] = readZip(lie(Buffer.from(zipSync({ "a.md": new Uint8Array(5_000_000).fill(66) }, { level: 9 }))), "f", LIMITS);
    expect(deflated.bytes.length).toBe(10);
    // A stored entry is its own bytes: never more than the archive, and still held to the total.
    expect(() => readZip(lie(Buffer.from(zipSync({ "a.md": new Uint8Array(2_000_000).fill(66) }, { level: 0 }))), "f", LIMITS)).toThrow(/more than 1048576 bytes/);
  });

  test("something that is not a ZIP is a 400", () => {
    expect(() => readZip(Buffer.from("PK not really a zip"), "source.files[0]", LIMITS)).toThrow(/'source\.files\[0\]': not a ZIP/);
  });

  test("safeEntryPath normalises separators and dots", () => {
    expect(safeEntryPath("a\\b/./c.md")).toBe("a/b/c.md");
    expect(safeEntryPath("a/..b/c.md")).toBe("a/..b/c.md");
    expect(safeEntryPath("../c.md")).toBeUndefined();
  });
});
