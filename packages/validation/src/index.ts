// fastest-validator rules that several services share.

/** An identifier in a path or body. */
export const idRule = { type: "string", min: 1, max: 64 } as const;

type Check = (value: unknown, errors: Array<{ type: string; expected?: unknown; actual?: unknown }>) => unknown;

const maxLength =
  (max: number): Check =>
  (value, errors) => {
    if (typeof value === "string" && value.length > max) errors.push({ type: "stringMax", expected: max, actual: value.length });
    return value;
  };

/** An absolute http(s) URL of at most `max` characters (fastest-validator's url rule has no length limit). */
export function urlRule(max: number, extra: { optional?: boolean; nullable?: boolean } = {}) {
  return { type: "url", custom: maxLength(max), ...extra } as const;
}

/** The flags of GitBook's content reads (`metadata`, `computed`), as query strings give them. */
export const contentReadFlags = {
  metadata: { type: "boolean", optional: true, convert: true },
  computed: { type: "boolean", optional: true, convert: true },
} as const;

/** The flags of GitBook's page reads: the content flags, plus `format` (document or markdown) and `evaluated`. */
export const pageReadFlags = {
  ...contentReadFlags,
  format: { type: "enum", values: ["document", "markdown"], optional: true },
  evaluated: { type: "boolean", optional: true, convert: true },
} as const;
