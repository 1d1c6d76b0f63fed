// `npm run admin -- <command>` (scripts/admin.js), spawned as a process the way an operator runs it, against a
// running instance (its API with the administrator token) and its data directory.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiClient, createOrg, startEmbedded, type RunningSystem } from "@docshelf/testkit";

const ADMIN = join(__dirname, "..", "..", "scripts", "admin.js");

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function admin(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const { ADMIN_TOKEN: _a, DOCSHELF_URL: _u, MONGO_URL: _m, DATA_DIR: _d, ...inherited } = process.env;
    const child = spawn(process.execPath, [ADMIN, ...args], { env: { ...inherited, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the admin command line", () => {
  let system: RunningSystem;
  let env: Record<string, string>;
  const temp: string[] = [];
  const runs: Run[] = [];
  const run = async (args: string[], extra: Record<string, string> = {}): Promise<Run> => {
    const result = await admin(args, { ...env, ...extra });
    runs.push(result);
    return result;
  };

  beforeAll(async () => {
    system = await startEmbedded();
    env = { DOCSHELF_URL: system.url, ADMIN_TOKEN: system.adminToken, DATA_DIR: system.dataDir };
  }, 60_000);

  afterAll(async () => {
    await system?.stop();
    for (const dir of temp) rmSync(dir, { recursive: true, force: true });
  });

  test("--help lists every command and exits 0; no command prints it to stderr and exits 2", async () => {
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    for (const command of ["create-user", "create-token", "list-orgs", "backup", "restore", "import-nedb", "git-check"]) expect(help.stdout).toContain(command);
    const none = await run([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("usage: npm run admin");
  });

  test.each([
    [["frobnicate"], /unknown command "frobnicate"/],
    [["create-user"], /--email/],
    [["create-user", "--email"], /--email needs a value/],
    [["create-user", "--email", "a@example.com", "--admin"], /unknown option --admin/],
    [["create-user", "--email", "a@example.com", "extra"], /no argument "extra"/],
    [["create-token"], /--user/],
    [["create-token", "--user", "../../v1/orgs"], /--user must be a user id/],
    [["list-orgs", "--limit", "3"], /unknown option --limit/],
    [["backup"], /backup needs one argument/],
    [["restore", "a", "b"], /restore needs one argument/],
    [["import-nedb"], /import-nedb needs one argument/],
    [["import-nedb", "/no/such/directory"], /nedb data directory/],
    [["git-check"], /git-check needs/],
  ])("%j is refused with exit status 2 and a message naming the argument", async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe("");
  });

  test("create-user and create-token go through the API; the token is printed once, alone on stdout, and works", async () => {
    const email = `admin-cli-${Date.now()}@example.com`;
    const user = await run(["create-user", "--email", email, "--name", "Ops Person"]);
    expect(user.code).toBe(0);
    const id = /created user (\S+)/.exec(user.stdout)?.[1];
    expect(id).toBeTruthy();
    const token = await run(["create-token", "--user", id!, "--label", "deploy bot"]);
    expect(token.code).toBe(0);
    const lines = token.stdout.split("\n").filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(token.stderr).toContain("shown this once");
    const me = await new ApiClient(system.url, lines[0]).get("/v1/user");
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(id);
    // The user's token list names the label; never its value again.
    const listed = await new ApiClient(system.url, lines[0]).get("/v1/docshelf/user/tokens");
    expect(JSON.stringify(listed.body)).toContain("deploy bot");
    expect(JSON.stringify(listed.body)).not.toContain(lines[0]);
  });

  test("a wrong ADMIN_TOKEN or no server: exit 1 with what to check, and no token in the output", async () => {
    const wrong = await run(["create-user", "--email", "x@example.com"], { ADMIN_TOKEN: "dsk_not-the-admin-token-secret" });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/401/);
    expect(wrong.stderr + wrong.stdout).not.toContain("dsk_not-the-admin-token-secret");
    const unset = await run(["create-user", "--email", "x@example.com"], { ADMIN_TOKEN: "" });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toMatch(/ADMIN_TOKEN must be set/);
    const away = await run(["create-user", "--email", "x@example.com"], { DOCSHELF_URL: "http://127.0.0.1:1" });
    expect(away.code).toBe(1);
    expect(away.stderr).toMatch(/did not answer/);
  });

  test("list-orgs reads the running server's data directory", async () => {
    const user = await run(["create-user", "--email", `orgs-${Date.now()}@example.com`]);
    const id = /created user (\S+)/.exec(user.stdout)![1];
    const token = (await run(["create-token", "--user", id])).stdout.trim();
    const org = await createOrg(new ApiClient(system.url, token), "Listed By Admin");
    const text = await run(["list-orgs"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`${org.id}\t1 members\tListed By Admin`);
    const json = await run(["list-orgs", "--json"]);
    expect(JSON.parse(json.stdout)).toContainEqual(expect.objectContaining({ id: org.id, title: "Listed By Admin", members: 1 }));
    const elsewhere = await run(["list-orgs"], { DATA_DIR: join(tmpdir(), "no-such-docshelf-data") });
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toMatch(/does not exist/);
  });

  test("backup while the server runs, restore into a new DATA_DIR, and list what was restored", async () => {
    const root = mkdtempSync(join(tmpdir(), "docshelf-admin-"));
    temp.push(root);
    const backup = await run(["backup", join(root, "backup")]);
    expect(backup.code).toBe(0);
    expect(existsSync(join(root, "backup", "docshelf-backup.json"))).toBe(true);
    const restored = await run(["restore", join(root, "backup")], { DATA_DIR: join(root, "restored") });
    expect(restored.code).toBe(0);
    const listed = await run(["list-orgs", "--json"], { DATA_DIR: join(root, "restored") });
    expect(JSON.parse(listed.stdout)).toContainEqual(expect.objectContaining({ title: "Listed By Admin" }));
    // Refused into a directory that already holds a store.
    const again = await run(["restore", join(root, "backup")], { DATA_DIR: system.dataDir });
    expect(again.code).toBe(1);
  });

  test("import-nedb fills a new DATA_DIR from an old nedb data directory, which it leaves as it was", async () => {
    const root = mkdtempSync(join(tmpdir(), "docshelf-nedb-"));
    temp.push(root);
    const old = join(root, "old");
    mkdirSync(join(old, "orgs"), { recursive: true });
    const orgsDb = [
      JSON.stringify({ _id: "oldorg1", title: "From nedb", createdAt: { $$date: Date.parse("2025-01-02T03:04:05Z") } }),
      JSON.stringify({ _id: "oldorg2", title: "Deleted later" }),
      JSON.stringify({ $$deleted: true, _id: "oldorg2" }),
    ].join("\n");
    writeFileSync(join(old, "orgs", "orgs.db"), `${orgsDb}\n`);
    writeFileSync(join(old, "orgs", "members.db"), `${JSON.stringify({ _id: "m1", organizationId: "oldorg1", userId: "u1", role: "admin" })}\n`);
    const target = join(root, "data");
    const imported = await run(["import-nedb", old], { DATA_DIR: target });
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain("orgs:");
    expect(existsSync(join(old, "orgs", "orgs.db"))).toBe(true);
    const listed = await run(["list-orgs", "--json"], { DATA_DIR: target });
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id: "oldorg1", title: "From nedb", members: 1 })]);
    // Not twice into the same DATA_DIR.
    const twice = await run(["import-nedb", old], { DATA_DIR: target });
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/already holds a store/);
  });

  test("the administrator token appears in no output of any run", () => {
    expect(runs.length).toBeGreaterThan(20);
    for (const r of runs) expect(r.stdout + r.stderr).not.toContain(system.adminToken);
  });
});
