// Applies the store's modifiers (as `toModifiers` renders them: `$set`, `$unset`, `$inc`, `$push`, `$pull`
// with dotted field paths) to a document held in JavaScript: what the SQLite adapter does inside the
// transaction that reads and writes the document back.
import { BadRequestError } from "@docshelf/errors";

type Obj = Record<string, unknown>;

function isObject(value: unknown): value is Obj {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The object holding the path's last segment, made on the way when `create`; undefined when absent. */
function parentOf(doc: Obj, path: string, create: boolean): { parent: Obj; key: string } | undefined {
  const segments = path.split(".");
  let at: Obj = doc;
  for (let i = 0; i < segments.length - 1; i++) {
    const key = segments[i];
    let next = Object.prototype.hasOwnProperty.call(at, key) ? at[key] : undefined;
    if (next === undefined || next === null) {
      if (!create) return undefined;
      next = {};
      at[key] = next;
    }
    if (typeof next !== "object") throw new BadRequestError(`Cannot change '${path}': '${segments.slice(0, i + 1).join(".")}' is not an object.`);
    at = next as Obj;
  }
  const key = segments[segments.length - 1];
  if (key === "__proto__") throw new BadRequestError(`Invalid field '${path}'.`);
  return { parent: at, key };
}

function equalPrimitive(a: unknown, b: unknown): boolean {
  return a === b;
}

/** Changes `doc` in place by `mods`. */
export function applyModifiers(doc: Obj, mods: Obj): void {
  const set = mods.$set as Obj | undefined;
  for (const [path, value] of Object.entries(set ?? {})) {
    const at = parentOf(doc, path, true)!;
    at.parent[at.key] = value;
  }
  const unset = mods.$unset as Obj | undefined;
  for (const path of Object.keys(unset ?? {})) {
    const at = parentOf(doc, path, false);
    if (at && isObject(at.parent)) delete at.parent[at.key];
  }
  const inc = mods.$inc as Record<string, number> | undefined;
  for (const [path, by] of Object.entries(inc ?? {})) {
    if (typeof by !== "number") throw new BadRequestError(`Invalid increment for '${path}'.`);
    const at = parentOf(doc, path, true)!;
    const current = at.parent[at.key];
    if (current !== undefined && typeof current !== "number") throw new BadRequestError(`Cannot increment '${path}': it is not a number.`);
    at.parent[at.key] = (current ?? 0) + by;
  }
  const push = mods.$push as Obj | undefined;
  for (const [path, value] of Object.entries(push ?? {})) {
    const at = parentOf(doc, path, true)!;
    const current = at.parent[at.key];
    if (current === undefined) at.parent[at.key] = [value];
    else if (Array.isArray(current)) current.push(value);
    else throw new BadRequestError(`Cannot push to '${path}': it is not an array.`);
  }
  const pull = mods.$pull as Obj | undefined;
  for (const [path, value] of Object.entries(pull ?? {})) {
    const at = parentOf(doc, path, false);
    const current = at?.parent[at.key];
    if (at && Array.isArray(current)) at.parent[at.key] = current.filter((item) => !equalPrimitive(item, value));
  }
}
