// The dependency picture runs one way: services and the shared packages never depend on the program.
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { ALL_SERVICES } from "@docshelf/config";

const ROOT = join(__dirname, "../../..");

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

function workspaces(): { folder: string; manifest: Manifest }[] {
  const patterns = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { workspaces: string[] }).workspaces;
  const folders = patterns.flatMap((pattern) =>
    pattern.endsWith("/*")
      ? readdirSync(join(ROOT, pattern.slice(0, -2)), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => `${pattern.slice(0, -2)}/${entry.name}`)
      : [pattern],
  );
  return folders
    .filter((folder) => existsSync(join(ROOT, folder, "package.json")))
    .map((folder) => ({ folder, manifest: JSON.parse(readFileSync(join(ROOT, folder, "package.json"), "utf8")) as Manifest }));
}

const dependsOn = (manifest: Manifest, name: string) => Boolean(manifest.dependencies?.[name] ?? manifest.devDependencies?.[name]);

describe("who depends on whom", () => {
  test("only tests and benchmarks depend on the program (@docshelf/server)", () => {
    const users = workspaces()
      .filter(({ manifest }) => dependsOn(manifest, "@docshelf/server"))
      .map(({ folder }) => folder)
      .sort();
    expect(users).toEqual(["bench", "packages/testkit", "test"]);
  });

  test("@docshelf/runtime depends on no service, and its sources import none", () => {
    const runtime = workspaces().find(({ folder }) => folder === "packages/runtime");
    expect(runtime).toBeDefined();
    for (const service of ALL_SERVICES) expect(dependsOn(runtime!.manifest, `@docshelf/${service}`)).toBe(false);
    const src = join(ROOT, "packages/runtime/src");
    for (const file of readdirSync(src).filter((name) => name.endsWith(".ts"))) {
      const text = readFileSync(join(src, file), "utf8");
      for (const service of [...ALL_SERVICES, "server"]) expect(`${file}: ${text.includes(`"@docshelf/${service}"`)}`).toBe(`${file}: false`);
    }
  });
});
