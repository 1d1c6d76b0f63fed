// Names, once per run, the server MONGO_URL points at (MongoDB, or FerretDB in CI), for the contract's title
// and for the tests of the per-document locks that FerretDB 1.x needs.
module.exports = async function mongoCheck() {
  const url = process.env.MONGO_URL;
  if (!url) return;
  const { MongoClient } = require("mongoose").mongo;
  const client = await MongoClient.connect(url, { serverSelectionTimeoutMS: 10_000 });
  try {
    const info = await client.db().admin().command({ buildInfo: 1 });
    process.env.MONGO_SERVER = typeof info.ferretdbVersion === "string" ? `FerretDB ${info.ferretdbVersion}` : `MongoDB ${info.version}`;
    process.stderr.write(`\nstore contract: MONGO_URL is ${process.env.MONGO_SERVER}\n`);
  } finally {
    await client.close();
  }
};
