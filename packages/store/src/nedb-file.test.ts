// The reader of nedb's data files (nedb-file.ts), on files nedb itself wrote: test/fixtures/nedb-files (every
// kind of line, a torn last line; expected.json is what nedb 4.1.2 loaded from it) and the DATA_DIR of the
// last nedb version (test/fixtures/nedb-data-dir, which the upgrade suite imports end to end).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nedbRecords, parseNedbLine, readNedbFile } from "./nedb-file";

const FIXTURES = join(__dirname, "..", "..", "..", "test", "fixtures");
const THINGS = join(FIXTURES, "nedb-files", "things.db");
const expected = JSON.parse(readFileSync(join(FIXTURES, "nedb-files", "expected.json"), "utf8")) as {
  docs: Array<Record<string, unknown> & { _id: string }>;
  indexes: Array<{ fieldName: string; unique: boolean; sparse: boolean }>;
};

describe("reading a file nedb wrote", () => {
  test.each([
    ["whole", undefined],
    ["in 7-byte chunks (lines across chunk edges)", 7],
  ])("replays it as nedb loaded it: later lines win, deletions remove, dates become ISO strings, the torn last line is skipped (%s)", (_how, chunk) => {
    const read = readNedbFile(THINGS, chunk);
    const docs = [...read.docs].map(([id, doc]) => ({ _id: id, ...doc })).sort((a, b) => (a._id < b._id ? -1 : 1));
    expect(docs).toEqual(expected.docs);
    // nedb always has its _id index; the file defines the others (one created and removed again).
    expect([...read.indexes.values()].map((i) => ({ unique: false, sparse: false, ...i }))).toEqual(expected.indexes.filter((i) => i.fieldName !== "_id"));
    const lines = readFileSync(THINGS, "utf8").split("\n");
    expect(read.unreadable).toEqual([lines.length]);
  });

  test("gives the records in file order, each kind once at least", () => {
    const kinds = [...nedbRecords(THINGS)].map((r) => r.kind);
    expect(kinds.slice(0, 4)).toEqual(["index", "index", "index", "document"]);
    expect(new Set(kinds)).toEqual(new Set(["index", "document", "deleted", "index-removed", "unreadable"]));
    expect(kinds[kinds.length - 1]).toBe("unreadable");
  });

  test("every document of the last nedb version's DATA_DIR is read, as many as nedb loaded, and no line is unreadable", () => {
    // Counted by nedb 4.1.2's own loader on these files (files with no document are left out).
    const nedbLoaded: Record<string, number> = {
      "change-requests/settings.db": 1,
      "content/documents.db": 4,
      "content/revisions.db": 2,
      "content/settings.db": 1,
      "content/spaces.db": 1,
      "git-sync/settings.db": 1,
      "identity/tokens.db": 2,
      "identity/users.db": 2,
      "orgs/members.db": 1,
      "orgs/orgs.db": 1,
    };
    const data = join(FIXTURES, "nedb-data-dir", "data");
    const counted: Record<string, number> = {};
    let files = 0;
    for (const service of readdirSync(data)) {
      for (const file of readdirSync(join(data, service)).filter((f) => f.endsWith(".db"))) {
        files++;
        const read = readNedbFile(join(data, service, file));
        expect(read.unreadable).toEqual([]);
        if (read.docs.size) counted[`${service}/${file}`] = read.docs.size;
      }
    }
    expect(files).toBeGreaterThan(40);
    expect(counted).toEqual(nedbLoaded);
    const space = [...readNedbFile(join(data, "content", "spaces.db")).docs.values()][0];
    expect(space).toMatchObject({ title: "Fixture Handbook", visibility: "private" });
    expect(space).not.toHaveProperty("_id");
  });
});

describe("one line", () => {
  test("a $$date is an ISO string wherever it is; an object with more keys than $$date is left as it is", () => {
    expect(parseNedbLine('{"_id":"x","a":{"$$date":0},"b":[{"$$date":86400000}],"c":{"$$date":1,"d":2}}', 1)).toEqual({
      kind: "document",
      id: "x",
      doc: { a: "1970-01-01T00:00:00.000Z", b: ["1970-01-02T00:00:00.000Z"], c: { $$date: 1, d: 2 } },
    });
  });

  test.each([
    ["a torn line", '{"_id":"x","a":'],
    ["JSON that is not a document", "[1,2]"],
    ["null", "null"],
    ["a document without an id", '{"a":1}'],
    ["an empty id", '{"_id":"","a":1}'],
  ])("%s is unreadable, with its line number", (_what, text) => {
    expect(parseNedbLine(text, 12)).toEqual({ kind: "unreadable", line: 12 });
  });

  test("blank lines are skipped and a file without a final newline still gives its last line", () => {
    const dir = mkdtempSync(join(tmpdir(), "docshelf-nedb-file-"));
    try {
      const file = join(dir, "x.db");
      writeFileSync(file, '\n{"_id":"a","n":1}\n\n   \n{"_id":"b","n":2}');
      expect([...nedbRecords(file, 5)]).toEqual([
        { kind: "document", id: "a", doc: { n: 1 } },
        { kind: "document", id: "b", doc: { n: 2 } },
      ]);
      writeFileSync(file, "");
      expect([...nedbRecords(file)]).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
