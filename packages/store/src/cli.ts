// `npm run backup -- <directory>` and `npm run restore -- <directory>`: the embedded store of DATA_DIR
// (default ./data, as the server's) backed up while the server runs, or restored into a new DATA_DIR.
import { resolve } from "node:path";
import { backupDataDir, inUse, restoreDataDir } from "./backup";

const USAGE = "usage: npm run backup -- <new directory>   |   npm run restore -- <backup directory>   (DATA_DIR names the data directory, default ./data)";

async function main(argv: string[]): Promise<number> {
  const [command, target, ...rest] = argv;
  if (!target || rest.length || (command !== "backup" && command !== "restore")) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if (process.env.MONGO_URL) {
    process.stderr.write("MONGO_URL is set: the store is in MongoDB, which this command does not back up; use mongodump and mongorestore (docs/OPERATIONS.md).\n");
    return 2;
  }
  const dataDir = resolve(process.env.DATA_DIR || "./data");
  if (command === "backup") {
    const started = Date.now();
    const manifest = await backupDataDir(dataDir, resolve(target));
    const documents = Object.values(manifest.services).reduce((n, s) => n + s.documents, 0);
    const files = Object.values(manifest.services).reduce((n, s) => n + s.files, 0);
    process.stdout.write(`backed up ${dataDir} into ${resolve(target)}: ${Object.keys(manifest.services).length} services, ${documents} documents, ${files} files, in ${Date.now() - started} ms\n`);
    return 0;
  }
  const holder = inUse(dataDir);
  if (holder) {
    process.stderr.write(`DATA_DIR ${dataDir} is in use by a running docshelf (${holder}): stop it, and restore into a new or empty DATA_DIR.\n`);
    return 1;
  }
  const manifest = restoreDataDir(resolve(target), dataDir);
  process.stdout.write(`restored the backup of ${manifest.createdAt} into ${dataDir}: ${Object.keys(manifest.services).join(", ")}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
