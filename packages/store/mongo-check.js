// Decides once per run how the MongoDB contract run goes: which server MONGO_URL names, and whether its
// updates are atomic (FerretDB 1.x's are not), so the suite registers the atomic-update tests or not.
module.exports = async function mongoCheck() {
  const url = process.env.MONGO_URL;
  if (!url) return;
  const { MongoClient } = require("mongoose").mongo;
  const client = await MongoClient.connect(url, { serverSelectionTimeoutMS: 10_000 });
  try {
    const info = await client.db().admin().command({ buildInfo: 1 });
    const ferret = typeof info.ferretdbVersion === "string" ? info.ferretdbVersion : "";
    process.env.MONGO_SERVER = ferret ? `FerretDB ${ferret}` : `MongoDB ${info.version}`;
    process.env.MONGO_ATOMIC_UPDATES = ferret && /^v?1\./.test(ferret) ? "0" : "1";
    process.stderr.write(`\nstore contract: MONGO_URL is ${process.env.MONGO_SERVER}; atomic updates: ${process.env.MONGO_ATOMIC_UPDATES === "1" ? "yes" : "no"}\n`);
  } finally {
    await client.close();
  }
};
