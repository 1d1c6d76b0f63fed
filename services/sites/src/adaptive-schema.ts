// The adaptive-content JSON Schema a site accepts, and the template conditions derived from it.
import { BadRequestError } from "@docshelf/errors";

export const DRAFT_07 = "http://json-schema.org/draft-07/schema#";
export const UNSIGNED_DESCRIPTION = "Unsigned claims of the site visitor.";
/** Claims per object: a visitor token is small, and so is a useful schema. */
export const MAX_CLAIMS = 100;
const CLAIM_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export interface BooleanClaim {
  type: "boolean";
  description: string;
}

export interface UnsignedClaims {
  type: "object";
  description: string;
  properties: Record<string, BooleanClaim>;
  additionalProperties: false;
}

export interface AdaptiveJsonSchema {
  $schema?: typeof DRAFT_07;
  $id?: string;
  type: "object";
  properties: {
    unsigned?: UnsignedClaims;
    [claim: string]: BooleanClaim | UnsignedClaims | undefined;
  };
  additionalProperties: false;
}

export const DEFAULT_SCHEMA: AdaptiveJsonSchema = {
  type: "object",
  properties: { unsigned: { type: "object", description: UNSIGNED_DESCRIPTION, properties: {}, additionalProperties: false } },
  additionalProperties: false,
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fail(path: string, problem: string): never {
  throw new BadRequestError(`Invalid parameters: '${path}' ${problem}.`);
}

function onlyKeys(value: Record<string, unknown>, path: string, allowed: string[]): void {
  for (const key of Object.keys(value)) if (!allowed.includes(key)) fail(`${path}.${key}`, "is not allowed");
}

function checkClaims(value: unknown, path: string): Record<string, BooleanClaim> {
  if (!isObject(value)) fail(path, "must be an object of claims");
  const names = Object.keys(value);
  if (names.length > MAX_CLAIMS) fail(path, `must hold at most ${MAX_CLAIMS} claims`);
  const claims: Record<string, BooleanClaim> = {};
  for (const name of names) {
    const claimPath = `${path}.${name}`;
    if (!CLAIM_NAME.test(name)) fail(claimPath, "must be named with letters, digits and underscores (at most 64)");
    const claim = value[name];
    if (!isObject(claim)) fail(claimPath, "must be an object");
    onlyKeys(claim, claimPath, ["type", "description"]);
    if (claim.type !== "boolean") fail(`${claimPath}.type`, 'must be "boolean"');
    if (typeof claim.description !== "string" || claim.description.length > 512) fail(`${claimPath}.description`, "must be a string of at most 512 characters");
    claims[name] = { type: "boolean", description: claim.description };
  }
  return claims;
}

/** The schema if it has the accepted form (type object, boolean claims, an `unsigned` object of boolean claims, additionalProperties false); else 400 naming what is wrong. */
export function parseAdaptiveSchema(input: unknown): AdaptiveJsonSchema {
  const root = "jsonSchema";
  if (!isObject(input)) fail(root, "must be an object");
  onlyKeys(input, root, ["$schema", "$id", "type", "properties", "additionalProperties"]);
  if (input.$schema !== undefined && input.$schema !== DRAFT_07) fail(`${root}.$schema`, `must be "${DRAFT_07}"`);
  if (input.$id !== undefined && (typeof input.$id !== "string" || input.$id.length > 2048)) fail(`${root}.$id`, "must be a string of at most 2048 characters");
  if (input.type !== "object") fail(`${root}.type`, 'must be "object"');
  if (input.additionalProperties !== false) fail(`${root}.additionalProperties`, "must be false");
  if (!isObject(input.properties)) fail(`${root}.properties`, "must be an object");
  const { unsigned, ...signed } = input.properties;
  const schema: AdaptiveJsonSchema = { type: "object", properties: {}, additionalProperties: false };
  if (input.$schema !== undefined) schema.$schema = DRAFT_07;
  if (input.$id !== undefined) schema.$id = input.$id as string;
  Object.assign(schema.properties, checkClaims(signed, `${root}.properties`));
  if (unsigned !== undefined) {
    const path = `${root}.properties.unsigned`;
    if (!isObject(unsigned)) fail(path, "must be an object");
    onlyKeys(unsigned, path, ["type", "description", "properties", "additionalProperties"]);
    if (unsigned.type !== "object") fail(`${path}.type`, 'must be "object"');
    if (unsigned.additionalProperties !== false) fail(`${path}.additionalProperties`, "must be false");
    if (unsigned.description !== undefined && unsigned.description !== UNSIGNED_DESCRIPTION) fail(`${path}.description`, `must be "${UNSIGNED_DESCRIPTION}"`);
    schema.properties.unsigned = {
      type: "object",
      description: UNSIGNED_DESCRIPTION,
      properties: checkClaims(unsigned.properties, `${path}.properties`),
      additionalProperties: false,
    };
  }
  return schema;
}

export interface TemplateCondition {
  description: string;
  condition: string;
}

/** One condition per claim, true when the visitor has it: signed claims first, then unsigned ones. */
export function templateConditions(schema: AdaptiveJsonSchema): TemplateCondition[] {
  const out: TemplateCondition[] = [];
  for (const [name, claim] of Object.entries(schema.properties)) {
    if (name === "unsigned" || claim?.type !== "boolean") continue;
    out.push({ description: claim.description || `Visitor's ${name} claim is true`, condition: `visitor.claims.${name} === true` });
  }
  for (const [name, claim] of Object.entries(schema.properties.unsigned?.properties ?? {})) {
    out.push({ description: claim.description || `Visitor's unsigned ${name} claim is true`, condition: `visitor.claims.unsigned.${name} === true` });
  }
  return out;
}
