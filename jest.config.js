// Every workspace's jest project, from the root package.json's workspaces: the settings are jest.preset.js,
// once. A workspace's `npm test` runs its own project (`--selectProjects <folder>`, which is how turbo
// runs them one by one); `npx jest <path>` here runs the tests under that path in whichever workspace
// holds them. The end-to-end suites (test/) keep their own jest.config.js, which they are also run by.
const { existsSync, readdirSync } = require("node:fs");
const path = require("node:path");
const { reporters, ...projectSettings } = require("./jest.preset.js");

/** What one workspace adds to the preset. */
const EXTRA = {
  // Names the MongoDB server of the store contract's run (MONGO_URL), once per run.
  "packages/store": { globalSetup: "<rootDir>/mongo-check.js" },
  // The app's browser code (client/) has unit tests of its own beside the server's.
  "services/app": { testMatch: ["<rootDir>/src/**/*.test.ts", "<rootDir>/client/**/*.test.ts"] },
};

const folders = require("./package.json").workspaces.flatMap((pattern) =>
  pattern.endsWith("/*")
    ? readdirSync(path.join(__dirname, pattern.slice(0, -2)), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${pattern.slice(0, -2)}/${entry.name}`)
    : [pattern],
);

const projects = folders
  .filter((folder) => existsSync(path.join(__dirname, folder, "package.json")) && require(`./${folder}/package.json`).scripts?.test)
  .map((folder) => {
    const own = path.join(__dirname, folder, "jest.config.js");
    // A workspace with settings of its own (test/, which is also run from its folder): its config as a
    // project, without the run-wide reporters.
    const settings = existsSync(own) ? (({ reporters: _, ...rest }) => rest)(require(own)) : { ...projectSettings, ...EXTRA[folder] };
    return { ...settings, displayName: folder, rootDir: path.join(__dirname, folder) };
  });

// testTimeout is a setting of the whole run, not of a project: the preset's value is given here too.
module.exports = { reporters, testTimeout: projectSettings.testTimeout, projects };
