// Rewrites the README's configuration table from packages/config's VARIABLES (run after a build).
const { readFileSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");
const { VARIABLES } = require("../packages/config/dist");

const readme = join(__dirname, "..", "README.md");
const text = readFileSync(readme, "utf8");
const rows = VARIABLES.map((v) => `| \`${v.name}\` | ${v.default ? `\`${v.default}\`` : "(empty)"} | ${v.why} |`);
const table = ["| Variable | Default | What it does |", "|---|---|---|", ...rows].join("\n");
const start = text.indexOf("<!-- config:start");
const end = text.indexOf("<!-- config:end -->");
if (start < 0 || end < 0) throw new Error("README has no config markers");
const head = text.slice(0, text.indexOf("\n", start) + 1);
writeFileSync(readme, `${head}${table}\n${text.slice(end)}`);
console.log(`README: ${rows.length} variables`);
