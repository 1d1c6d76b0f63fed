import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fetchCommit, FetchError } from "./fetch-pack";
import { safeGitHttp } from "./git-http";
import { applyDelta, indexPack, objectId, ObjectStore, PackError, parseCommit, parseTree, UnsafeTreeEntryError } from "./pack";

const ENV = { ...process.env, GIT_AUTHOR_NAME: "T", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "T", GIT_COMMITTER_EMAIL: "t@example.com", GIT_CONFIG_NOSYSTEM: "1", HOME: tmpdir() };
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env: ENV, maxBuffer: 1 << 28 }).toString("utf8").trim();

/** A repository with history whose pack has deltas (a page edited commit after commit), binary files and nested trees. */
function makeRepo(root: string): string {
  const work = join(root, "work");
  fs.mkdirSync(join(work, "docs", "deep", "er"), { recursive: true });
  git(work, "init", "-q", "-b", "main");
  let page = "# Page\n\n";
  for (let i = 0; i < 12; i++) {
    page += `Paragraph ${i}: ${"lorem ipsum dolor sit amet ".repeat(40)}\n\n`;
    fs.writeFileSync(join(work, "docs", "page.md"), page);
    fs.writeFileSync(join(work, "docs", "deep", "er", `n${i % 3}.md`), `note ${i}\n${"x".repeat(5000 + i)}\n`);
    fs.writeFileSync(join(work, `bin-${i % 2}.dat`), Buffer.from(Array.from({ length: 70_000 }, (_, k) => (k * 7 + i * 13) % 251)));
    git(work, "add", "-A");
    git(work, "commit", "-q", "-m", `commit ${i}\n\nbody`);
  }
  git(work, "repack", "-a", "-d", "-f", "-q", "--depth=20", "--window=20");
  return work;
}

describe("packs read and indexed natively (pack.ts)", () => {
  let root: string;
  let work: string;
  beforeAll(() => {
    root = fs.mkdtempSync(join(tmpdir(), "git-sync-pack-"));
    work = makeRepo(root);
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  const packOf = (gitdir: string) => {
    const dir = join(gitdir, "objects", "pack");
    const name = fs.readdirSync(dir).find((n) => n.endsWith(".pack"))!;
    return { pack: fs.readFileSync(join(dir, name)), idx: fs.readFileSync(join(dir, name.replace(/\.pack$/, ".idx"))) };
  };

  test("indexPack writes the index git index-pack writes, byte for byte (deltas included)", async () => {
    const { pack, idx } = packOf(join(work, ".git"));
    expect(git(work, "verify-pack", "-v", join(work, ".git", "objects", "pack", fs.readdirSync(join(work, ".git", "objects", "pack")).find((n) => n.endsWith(".idx"))!))).toMatch(/chain length = [2-9]/);
    const result = await indexPack(pack, { maxObjectBytes: 1 << 30 });
    expect(result.idx.equals(idx)).toBe(true);
    expect(result.packId).toBe(pack.subarray(-20).toString("hex"));
  });

  test("ObjectStore reads every object of the pack, and loose objects, as git does", () => {
    const store = new ObjectStore(join(work, ".git"));
    const all = git(work, "cat-file", "--batch-all-objects", "--batch-check").split("\n");
    expect(all.length).toBeGreaterThan(40);
    for (const line of all) {
      const [oid, type, size] = line.split(" ");
      const object = store.read(oid)!;
      expect([object.type, object.data.length]).toEqual([type, Number(size)]);
      expect(objectId(object.type, object.data).toString("hex")).toBe(oid);
    }
    fs.writeFileSync(join(work, "loose.md"), "loose\n");
    const loose = git(work, "hash-object", "-w", "loose.md");
    expect(store.read(loose)?.data.toString()).toBe("loose\n");
    expect(store.has(loose)).toBe(true);
    expect(store.read("0".repeat(40))).toBeNull();
    expect(store.has("not an id")).toBe(false);
    const commit = parseCommit(store.readTyped(git(work, "rev-parse", "HEAD"), "commit"));
    expect(commit.tree).toBe(git(work, "rev-parse", "HEAD^{tree}"));
    expect(commit.parents).toEqual([git(work, "rev-parse", "HEAD~1")]);
    expect(commit.authorEmail).toBe("t@example.com");
    expect(commit.message).toBe("commit 11\n\nbody\n");
    expect(() => store.readTyped(commit.tree, "blob")).toThrow(PackError);
    store.close();
  });

  test("a damaged or cut pack, or an object over the limit, is refused", async () => {
    const { pack } = packOf(join(work, ".git"));
    const flipped = Buffer.from(pack);
    flipped[200] ^= 0xff;
    await expect(indexPack(flipped, { maxObjectBytes: 1 << 30 })).rejects.toThrow(/checksum/);
    await expect(indexPack(pack.subarray(0, 100), { maxObjectBytes: 1 << 30 })).rejects.toThrow(PackError);
    await expect(indexPack(Buffer.from("not a pack at all, not a pack at all"), { maxObjectBytes: 1 << 30 })).rejects.toThrow(/not a Git packfile/);
    await expect(indexPack(pack, { maxObjectBytes: 1000 })).rejects.toThrow(/limit of 1000/);
  });

  test("applyDelta copies and inserts, and refuses copies outside its base", () => {
    const base = Buffer.from("hello world");
    // source 11, target 11: copy 6 bytes from 0 ("hello "), insert "there".
    const delta = Buffer.from([11, 11, 0x80 | 0x10, 6, 5, ...Buffer.from("there")]);
    expect(applyDelta(base, delta).toString()).toBe("hello there");
    expect(() => applyDelta(base, Buffer.from([11, 20, 0x80 | 0x01 | 0x10, 5, 20]))).toThrow(PackError);
    expect(() => applyDelta(base, Buffer.from([12, 1, 1, 65]))).toThrow(/base of 12/);
    expect(() => applyDelta(base, Buffer.from([11, 1, 0]))).toThrow(/reserved/);
  });

  test("parseTree refuses the names git refuses", () => {
    const entry = (mode: string, name: string) => Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.alloc(20, 1)]);
    expect(parseTree(Buffer.concat([entry("40000", "dir"), entry("100644", "a.md"), entry("120000", "link"), entry("160000", "sub")])).map((e) => [e.mode, e.type, e.path])).toEqual([
      ["040000", "tree", "dir"],
      ["100644", "blob", "a.md"],
      ["120000", "blob", "link"],
      ["160000", "commit", "sub"],
    ]);
    for (const name of [".git", ".GIT ", "..", ".", "git~1", ".g\u200cit", "a\\b", ".git::$INDEX_ALLOCATION"]) expect(() => parseTree(entry("100644", name))).toThrow(UnsafeTreeEntryError);
    expect(() => parseTree(entry("100600", "x"))).toThrow(/mode/);
  });
});

describe("fetching a commit over smart HTTP (fetch-pack.ts)", () => {
  let root: string;
  let server: Server;
  let url: string;
  let capabilityFilter: ((caps: string) => string) | null = null;
  beforeAll(async () => {
    root = fs.mkdtempSync(join(tmpdir(), "git-sync-fetch-"));
    const work = makeRepo(root);
    git(root, "clone", "-q", "--bare", work, "repo.git");
    server = createServer((req, res) => {
      if (req.headers.authorization !== `Basic ${Buffer.from("u:p").toString("base64")}`) return void res.writeHead(401, { "WWW-Authenticate": "Basic" }).end();
      const u = new URL(req.url ?? "/", "http://x");
      const cgi = spawn("git", ["http-backend"], { env: { ...ENV, GIT_PROJECT_ROOT: root, GIT_HTTP_EXPORT_ALL: "1", REQUEST_METHOD: req.method ?? "GET", PATH_INFO: u.pathname, QUERY_STRING: u.search.slice(1), CONTENT_TYPE: req.headers["content-type"] ?? "" } });
      req.pipe(cgi.stdin);
      const out: Buffer[] = [];
      cgi.stdout.on("data", (c: Buffer) => out.push(c));
      cgi.stdout.on("end", () => {
        const all = Buffer.concat(out);
        const end = all.indexOf("\r\n\r\n");
        const headers: Record<string, string> = {};
        let status = 200;
        for (const line of all.subarray(0, end).toString("latin1").split("\r\n")) {
          const at = line.indexOf(":");
          if (line.slice(0, at).toLowerCase() === "status") status = Number.parseInt(line.slice(at + 1), 10);
          else headers[line.slice(0, at)] = line.slice(at + 1).trim();
        }
        let body = all.subarray(end + 4);
        if (capabilityFilter && u.pathname.endsWith("/info/refs")) {
          // Re-encode the first ref line with the capabilities the test leaves.
          const lines: Buffer[] = [];
          for (let at = 0; at < body.length; ) {
            const size = Number.parseInt(body.toString("latin1", at, at + 4), 16);
            if (size === 0) lines.push(Buffer.from("0000"));
            else {
              let line = body.toString("latin1", at + 4, at + size);
              if (line.includes("\0")) line = `${line.slice(0, line.indexOf("\0"))}\0${capabilityFilter(line.slice(line.indexOf("\0") + 1).replace(/\n$/, ""))}\n`;
              lines.push(Buffer.from(`${(line.length + 4).toString(16).padStart(4, "0")}${line}`, "latin1"));
            }
            at += size || 4;
          }
          body = Buffer.concat(lines);
          delete headers["Content-Length"];
        }
        res.writeHead(status, headers).end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/repo.git`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(root, { recursive: true, force: true });
  });

  const target = (gitdir: string, password = "p") => ({
    url,
    credentials: { username: "u", password },
    http: safeGitHttp({ requestTimeoutMs: 30_000, maxResponseBytes: 1 << 30, allowedPrivateTargets: [new URL(url).host] }),
    gitdir,
  });
  const bare = () => {
    const dir = fs.mkdtempSync(join(root, "store-"));
    git(dir, "init", "-q", "--bare");
    return dir;
  };

  test("depth 1 brings the commit and its tree only, marks it shallow, and a later fetch brings only what is new", async () => {
    const gitdir = bare();
    const store = new ObjectStore(gitdir);
    const head = git(join(root, "repo.git"), "rev-parse", "main");
    const older = git(join(root, "repo.git"), "rev-parse", "main~3");
    const first = await fetchCommit(target(gitdir), "refs/heads/main", older, { haves: [], depth: 1, maxObjectBytes: 1 << 30, store }).catch((e: unknown) => e);
    // The server advertises only branch heads: an older commit is refused as the branch having moved.
    expect(first).toBeInstanceOf(FetchError);
    const result = await fetchCommit(target(gitdir), "refs/heads/main", head, { haves: [], depth: 1, maxObjectBytes: 1 << 30, store, keepBytes: 1 << 20 });
    expect(result.shallow).toBe(true);
    expect(fs.readFileSync(join(gitdir, "shallow"), "utf8")).toBe(`${head}\n`);
    expect(fs.readFileSync(join(gitdir, "refs", "remotes", "origin", "main"), "utf8").trim()).toBe(head);
    // git itself finds the store whole: every object of the tip's tree, nothing of its history.
    expect(git(gitdir, "fsck", "--no-dangling")).toBe("");
    expect(git(gitdir, "rev-list", "--objects", "--all").split("\n").length).toBe(git(join(root, "repo.git"), "ls-tree", "-r", "-t", "main").split("\n").length + 2);
    store.refresh();
    expect(store.has(head)).toBe(true);
    // What the fetch inflated is read from memory, a blob once.
    const readme = git(join(root, "repo.git"), "rev-parse", "main:docs/page.md");
    expect(store.preloaded.has(readme)).toBe(true);
    expect(objectId("blob", store.readTyped(readme, "blob")).toString("hex")).toBe(readme);
    expect(store.preloaded.has(readme)).toBe(false);
    expect(objectId("blob", store.readTyped(readme, "blob")).toString("hex")).toBe(readme);

    // A new commit on the server: the second fetch says what it has and gets the new objects alone.
    const work = join(root, "work");
    fs.writeFileSync(join(work, "docs", "new.md"), "# New\n");
    git(work, "add", "-A");
    git(work, "commit", "-q", "-m", "new");
    git(work, "push", "-q", join(root, "repo.git"), "HEAD:refs/heads/main");
    const next = git(join(root, "repo.git"), "rev-parse", "main");
    // (No depth then: with `deepen` the server would send the whole new tree again.)
    const second = await fetchCommit(target(gitdir), "refs/heads/main", next, { haves: [head], maxObjectBytes: 1 << 30, store });
    expect(second.objects).toBe(4); // the commit, the root tree, docs/ and new.md
    expect(fs.readFileSync(join(gitdir, "shallow"), "utf8")).toBe(`${head}\n`);
    expect(git(gitdir, "fsck", "--no-dangling")).toBe("");
    expect(git(gitdir, "rev-list", "--count", next)).toBe("2");
    store.close();
  });

  test("without the shallow capability the whole history comes, and git finds the store whole", async () => {
    capabilityFilter = (caps) => caps.split(" ").filter((c) => c !== "shallow").join(" ");
    try {
      const gitdir = bare();
      const head = git(join(root, "repo.git"), "rev-parse", "main");
      const result = await fetchCommit(target(gitdir), "refs/heads/main", head, { haves: [], depth: 1, maxObjectBytes: 1 << 30, store: new ObjectStore(gitdir) });
      expect(result.shallow).toBe(false);
      expect(fs.existsSync(join(gitdir, "shallow"))).toBe(false);
      expect(git(gitdir, "rev-list", "--count", head)).toBe(git(join(root, "repo.git"), "rev-list", "--count", "main"));
      expect(git(gitdir, "fsck", "--no-dangling")).toBe("");
    } finally {
      capabilityFilter = null;
    }
  });

  test("refused credentials give the status; nothing is left behind", async () => {
    const gitdir = bare();
    const err = await fetchCommit(target(gitdir, "wrong"), "refs/heads/main", "a".repeat(40), { haves: [], depth: 1, maxObjectBytes: 1 << 30, store: new ObjectStore(gitdir) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchError);
    expect((err as FetchError).status).toBe(401);
    expect(fs.readdirSync(join(gitdir, "objects", "pack"))).toEqual([]);
  });
});
