#!/usr/bin/env node
// `npm run admin -- <command>`: what an operator does without the web app (README, "Administration").
//
// Two ways in, chosen per command:
//  * Through the running instance's API with the administrator token (create-user, create-token): identity
//    validates and stores users and tokens (a token is hashed at rest), the same way in one process and
//    scaled out, and a running embedded server holds its DATA_DIR's lock, so nothing else may write there.
//    DOCSHELF_URL (default http://127.0.0.1:$PORT, PORT default 8080) and ADMIN_TOKEN, as the server's.
//  * On the data itself, read-only or into a new directory (list-orgs, backup, restore, import-nedb):
//    DATA_DIR (default ./data) or MONGO_URL, as the server's. No API lists every organization.
//  * git-check runs services/git-sync/scripts/check.js (a scratch instance of its own).
//
// Exit status: 0 done, 1 failed, 2 a bad command line (the message names the argument). The administrator
// token is never printed; a created API token is printed once, on stdout, alone on its line.
"use strict";
const { spawnSync } = require("node:child_process");
const { cpSync, existsSync, mkdirSync, readdirSync, statSync } = require("node:fs");
const { join, resolve } = require("node:path");

const ROOT = resolve(__dirname, "..");

const HELP = `usage: npm run admin -- <command> [options]

Through the running instance (DOCSHELF_URL, default http://127.0.0.1:$PORT; ADMIN_TOKEN):
  create-user --email <address> [--name <display name>]
                         makes a user; prints its id
  create-token --user <user id> [--label <label>]
                         makes an API token for the user; prints it once (store it now)

On the data (DATA_DIR, default ./data, or MONGO_URL):
  list-orgs [--json]     every organization: id, title, members (read-only, also while the server runs)
  backup <new directory> a consistent copy of the embedded store while the server runs (npm run backup)
  restore <backup>       into a new or empty DATA_DIR, server stopped (npm run restore)
  import-nedb <directory>
                         an old nedb data directory (<service>/<collection>.db) into a new DATA_DIR's
                         embedded store; the old files are kept

Other:
  git-check <path or URL> [--ref <ref>] [--dir <dir>]
                         what Git sync would change in a repository (npm run git-sync:check)
  help                   this text

Exit status: 0 done, 1 failed, 2 wrong arguments.`;

class UsageError extends Error {}

/** `--name value` options of a command; anything else is refused by name. */
function options(args, allowed, flags = []) {
  const out = {};
  const rest = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg.startsWith("--")) {
      const name = arg.slice(2);
      if (flags.includes(name)) out[name] = true;
      else if (allowed.includes(name)) {
        const value = args[++i];
        if (value === undefined || value.startsWith("--")) throw new UsageError(`--${name} needs a value`);
        out[name] = value;
      } else throw new UsageError(`unknown option ${arg}`);
    } else rest.push(arg);
  }
  return { ...out, _: rest };
}

function apiBase() {
  const raw = process.env.DOCSHELF_URL || `http://127.0.0.1:${process.env.PORT || "8080"}`;
  let url;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError("DOCSHELF_URL must be an http:// or https:// URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError("DOCSHELF_URL must be an http:// or https:// URL");
  if (!process.env.ADMIN_TOKEN) throw new UsageError("ADMIN_TOKEN must be set (the server's administrator token)");
  return raw.replace(/\/+$/, "");
}

async function api(method, path, body) {
  const base = apiBase();
  let res;
  try {
    res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${process.env.ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (err) {
    throw new Error(`docshelf at ${base} did not answer (${err.cause?.code ?? err.name}); is it running, and is DOCSHELF_URL right?`);
  }
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    const message = json?.error?.message ?? json?.message ?? text.slice(0, 200);
    throw new Error(res.status === 401 ? "the API refused ADMIN_TOKEN (401): is it the server's administrator token?" : `the API answered ${res.status}: ${message}`);
  }
  return json;
}

async function createUser(args) {
  const o = options(args, ["email", "name"]);
  if (o._.length) throw new UsageError(`create-user takes no argument "${o._[0]}"`);
  if (!o.email) throw new UsageError("create-user needs --email <address>");
  const user = await api("POST", "/v1/users", { email: o.email, displayName: o.name ?? o.email.split("@")[0] });
  process.stdout.write(`created user ${user.id} (${o.email})\n`);
  return 0;
}

async function createToken(args) {
  const o = options(args, ["user", "label"]);
  if (o._.length) throw new UsageError(`create-token takes no argument "${o._[0]}"`);
  if (!o.user) throw new UsageError("create-token needs --user <user id>");
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(o.user)) throw new UsageError("--user must be a user id");
  const created = await api("POST", `/v1/users/${encodeURIComponent(o.user)}/tokens`, { label: o.label ?? "admin command line" });
  process.stderr.write(`API token for user ${o.user}, shown this once (docshelf keeps only its hash):\n`);
  process.stdout.write(`${created.token}\n`);
  return 0;
}

/** Documents of one collection of the orgs service: read-only from SQLite (beside a running server), or MongoDB. */
async function readCollection(service, collection) {
  if (process.env.MONGO_URL) {
    const mongoose = require(require.resolve("mongoose", { paths: [join(ROOT, "packages", "store")] }));
    const connection = await mongoose.createConnection(process.env.MONGO_URL, { serverSelectionTimeoutMS: 10_000 }).asPromise();
    try {
      const docs = await connection.collection(`${service}_${collection}`).find({}).toArray();
      return docs.map(({ _id, ...rest }) => ({ ...rest, id: String(_id) }));
    } finally {
      await connection.close();
    }
  }
  const file = join(resolve(process.env.DATA_DIR || "./data"), service, "store.sqlite");
  if (!existsSync(file)) throw new Error(`${file} does not exist: is DATA_DIR the server's (default ./data)?`);
  const { DatabaseSync } = require("node:sqlite");
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    const table = `"c:${collection}"`;
    const exists = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?").get(`c:${collection}`);
    return exists ? db.prepare(`SELECT id, doc FROM ${table} ORDER BY id`).all().map((row) => ({ ...JSON.parse(row.doc), id: row.id })) : [];
  } finally {
    db.close();
  }
}

async function listOrgs(args) {
  const o = options(args, [], ["json"]);
  if (o._.length) throw new UsageError(`list-orgs takes no argument "${o._[0]}"`);
  const [orgs, members] = await Promise.all([readCollection("orgs", "orgs"), readCollection("orgs", "members")]);
  const count = new Map();
  for (const m of members) count.set(m.organizationId, (count.get(m.organizationId) ?? 0) + 1);
  const rows = orgs.map((org) => ({ id: org.id, title: org.title, members: count.get(org.id) ?? 0, createdAt: org.createdAt }));
  if (o.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  else {
    for (const r of rows) process.stdout.write(`${r.id}\t${r.members} members\t${r.title}\n`);
    process.stderr.write(`${rows.length} organizations\n`);
  }
  return 0;
}

/** Runs another program of the repository with this Node.js; its exit status is ours. */
function run(script, args) {
  const result = spawnSync(process.execPath, [join(ROOT, script), ...args], { stdio: "inherit" });
  if (result.error) throw result.error;
  return result.status === 64 ? 2 : (result.status ?? 1);
}

function storeCli(command, args) {
  if (args.length !== 1 || args[0].startsWith("--")) throw new UsageError(`${command} needs one argument: ${command === "backup" ? "<new directory>" : "<backup directory>"}`);
  return run("packages/store/dist/cli.js", [command, args[0]]);
}

async function importNedb(args) {
  if (args.length !== 1 || args[0].startsWith("--")) throw new UsageError("import-nedb needs one argument: <nedb data directory>");
  if (process.env.MONGO_URL) throw new UsageError("MONGO_URL is set: import-nedb fills the embedded store of DATA_DIR; unset MONGO_URL");
  const source = resolve(args[0]);
  if (!existsSync(source) || !statSync(source).isDirectory()) throw new UsageError(`<nedb data directory> ${source} is not a directory`);
  const dataDir = resolve(process.env.DATA_DIR || "./data");
  const services = readdirSync(source).filter((s) => statSync(join(source, s)).isDirectory() && readdirSync(join(source, s)).some((f) => f.endsWith(".db")));
  if (services.length === 0) throw new UsageError(`<nedb data directory> ${source} holds no <service>/<collection>.db files`);
  for (const service of services) {
    if (existsSync(join(dataDir, service, "store.sqlite"))) throw new Error(`${join(dataDir, service)} already holds a store: import into a new DATA_DIR`);
  }
  const { SqliteStore } = require(join(ROOT, "packages", "store", "dist"));
  for (const service of services) {
    const dir = join(dataDir, service);
    mkdirSync(dir, { recursive: true });
    for (const file of readdirSync(join(source, service))) {
      if (file.endsWith(".db")) cpSync(join(source, service, file), join(dir, file));
    }
    for (const sub of ["files", "blobs"]) {
      if (existsSync(join(source, service, sub))) cpSync(join(source, service, sub), join(dir, sub), { recursive: true });
    }
    // Opening the store runs its migrations, the nedb import among them (which moves the copies to nedb-imported/).
    const store = new SqliteStore({ dir, dataDir });
    const imported = store.migrations().find((m) => /nedb/i.test(m.name));
    await store.close();
    process.stdout.write(`${service}: ${imported ? imported.detail : "nothing to import"}\n`);
  }
  process.stdout.write(`imported ${source} into ${dataDir} (the originals are untouched)\n`);
  return 0;
}

async function main(argv) {
  const [command, ...args] = argv;
  switch (command) {
    case undefined:
      process.stderr.write(`${HELP}\n`);
      return 2;
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(`${HELP}\n`);
      return 0;
    case "create-user":
      return createUser(args);
    case "create-token":
      return createToken(args);
    case "list-orgs":
      return listOrgs(args);
    case "backup":
    case "restore":
      return storeCli(command, args);
    case "import-nedb":
      return importNedb(args);
    case "git-check":
      if (args.length === 0) throw new UsageError("git-check needs <path or URL of a Git repository>");
      return run("services/git-sync/scripts/check.js", args);
    default:
      throw new UsageError(`unknown command "${command}" (npm run admin -- help lists them)`);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`admin: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(err instanceof UsageError ? 2 : 1);
  },
);
