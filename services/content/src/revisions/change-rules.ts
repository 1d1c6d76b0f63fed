// Validation of a batch of content changes: every change is checked before any is applied.
import { Validators } from "moleculer";
import { BadRequestError, describeValidation } from "@docshelf/errors";

/** Largest file accepted by `insert_file` (decoded bytes). */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;
export const MAX_CHANGES = 10_000;

const optionalString = (max: number, extra: Record<string, unknown> = {}) => ({ type: "string", max, optional: true, ...extra });
const variables = { type: "record", optional: true, key: { type: "string", min: 1, max: 64, pattern: /^(?!__)[A-Za-z_][\w-]*$/ }, value: { type: "string", max: 256 } };
const ref = {
  type: "multi",
  optional: true,
  rules: [
    { type: "object", strict: true, props: { kind: { type: "equal", value: "file" }, file: { type: "string", min: 1, max: 64 } } },
    { type: "object", strict: true, props: { kind: { type: "equal", value: "url" }, url: { type: "url" } } },
  ],
};

const pageFields = {
  title: optionalString(256, { min: 1 }),
  emoji: optionalString(50, { nullable: true }),
  icon: optionalString(50, { nullable: true }),
  slug: optionalString(100, { pattern: /^[a-z0-9][a-z0-9-]*$/, messages: { stringPattern: "The 'slug' field may contain only lower-case letters, digits and hyphens." } }),
  description: optionalString(1000, { nullable: true }),
  markdown: optionalString(1024 * 1024),
  hidden: { type: "boolean", optional: true },
  noIndex: { type: "boolean", optional: true },
  noRobotsIndex: { type: "boolean", optional: true },
  layout: {
    type: "object",
    optional: true,
    strict: true,
    props: {
      width: { type: "enum", values: ["default", "wide"], optional: true },
      coverSize: { type: "enum", values: ["hero", "full"], optional: true },
      ...Object.fromEntries(["cover", "title", "description", "tableOfContents", "outline", "pagination", "metadata"].map((k) => [k, { type: "boolean", optional: true }])),
    },
  },
  cover: { type: "object", optional: true, nullable: true, strict: true, props: { ref, refDark: ref, yPos: { type: "number", default: 0 } } },
  variables,
  // GitBook's ComputedContentSourceRevisionOpenAPI; other sources (integrations, translations) are refused.
  computed: {
    type: "object",
    optional: true,
    nullable: true,
    strict: true,
    props: {
      type: { type: "equal", value: "builtin:openapi" },
      dependencies: {
        type: "object",
        strict: true,
        props: {
          spec: {
            type: "object",
            strict: true,
            props: { ref: { type: "object", strict: true, props: { kind: { type: "equal", value: "openapi" }, spec: { type: "string", min: 1, max: 100, pattern: /^[a-z0-9]+(?:-[a-z0-9]+)*$/ } } } },
          },
        },
      },
      props: { type: "object", optional: true, default: {}, strict: true, props: { models: { type: "boolean", optional: true } } },
    },
  },
  parent: { type: "string", min: 1, max: 64, optional: true, nullable: true },
  position: { type: "number", integer: true, min: 0, optional: true },
};

const RULES: Record<string, Record<string, unknown>> = {
  insert_page: { id: optionalString(64, { min: 1 }), pageType: { type: "enum", values: ["document", "group"], optional: true }, ...pageFields },
  update_page: { page: { type: "string", min: 1, max: 64 }, ...pageFields },
  delete_page: { page: { type: "string", min: 1, max: 64 } },
  insert_file: {
    id: optionalString(64, { min: 1 }),
    name: { type: "string", min: 1, max: 255, pattern: /^[^/\\\0]+$/ },
    contentType: { type: "string", min: 3, max: 255, pattern: /^[\w.+-]+\/[\w.+-]+$/ },
    data: { type: "string", max: Math.ceil((MAX_FILE_BYTES * 4) / 3) + 4, pattern: /^[A-Za-z0-9+/]*={0,2}$/ },
  },
  delete_file: { file: { type: "string", min: 1, max: 64 } },
  set_variables: { variables: { ...variables, optional: false } },
  upsert_reusable_content: { id: optionalString(64, { min: 1 }), title: { type: "string", min: 1, max: 256 }, markdown: { type: "string", max: 1024 * 1024 } },
  delete_reusable_content: { id: { type: "string", min: 1, max: 64 } },
};

export const CHANGE_TYPES = Object.keys(RULES);

// Moleculer's own fastest-validator, so the rules read and behave like every action's `params`.
const v = new Validators.Fastest({ useNewCustomCheckerFunction: true });
type Check = (value: unknown) => true | Array<{ field?: string; message?: string }>;
const checks: Record<string, Check> = Object.fromEntries(
  Object.entries(RULES).map(([type, props]) => [type, v.compile({ $$strict: true, type: { type: "equal", value: type }, ...props }) as unknown as Check]),
);

/** Throws a 400 naming the offending field unless every change is well-formed. */
export function checkChanges(changes: unknown[]): void {
  changes.forEach((change, index) => {
    const type = (change as { type?: unknown })?.type;
    const check = typeof type === "string" ? checks[type] : undefined;
    if (!check) throw new BadRequestError(`Invalid parameters: 'changes[${index}].type' must be one of ${CHANGE_TYPES.join(", ")}.`);
    const result = check(change);
    if (result !== true) {
      const items = result.map((e) => ({ ...e, field: `changes[${index}].${e.field}`, message: e.message?.replace(`'${e.field}'`, `'changes[${index}].${e.field}'`) }));
      throw new BadRequestError(describeValidation(items));
    }
  });
}
