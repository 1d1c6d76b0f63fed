// Writes dist/openapi.json, docshelf's own API description (src/own-api.ts), after tsc: GitBook's OpenAPI
// document of the interface's era (@gitbook/api 0.143.2, a development dependency) is read here, at build
// time, so the running gateway (and the image) needs only the file.
const { readFileSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");
const { ownApiDocument } = require("../dist/own-api");
const { V1_ROUTES } = require("../dist/routes");

const gitbook = JSON.parse(readFileSync(require.resolve("@gitbook/api/spec/openapi.json"), "utf8"));
const { version } = JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8"));
const document = ownApiDocument(gitbook, V1_ROUTES, version);
writeFileSync(join(__dirname, "..", "dist", "openapi.json"), JSON.stringify(document));
