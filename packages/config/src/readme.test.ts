// The README's configuration table is generated from VARIABLES; this keeps the two from drifting.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { VARIABLES } from "./index";

test("the README lists every configuration variable with its default", () => {
  const readme = readFileSync(join(__dirname, "..", "..", "..", "README.md"), "utf8");
  const missing = VARIABLES.filter((v) => !readme.includes(`| \`${v.name}\` | ${v.default ? `\`${v.default}\`` : "(empty)"} |`));
  expect(missing.map((v) => v.name)).toEqual([]);
});
