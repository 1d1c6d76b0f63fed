// fastest-validator rules of the service's parameters, and the reaction lists' normalization.
import { BadRequestError } from "@docshelf/errors";
import { idRule } from "@docshelf/validation";
import { FORMATS } from "./body";
import { MAX_EMOJI_LENGTH, normalizeEmoji } from "./emoji";

/** Most emoji one update may add or remove. */
export const MAX_REACTIONS_PER_UPDATE = 20;
/** Most ids in the `authors` filter. */
export const MAX_AUTHORS = 100;

export const formatRule = { type: "enum", values: [...FORMATS], optional: true } as const;

export const reactionsRule = {
  type: "array",
  optional: true,
  max: MAX_REACTIONS_PER_UPDATE,
  items: { type: "string", min: 1, max: MAX_EMOJI_LENGTH },
} as const;

/** GitBook's client sends `authors=a&authors=b`; a single `authors=a` arrives as a string. */
export const authorsRule = {
  type: "multi",
  optional: true,
  rules: [{ type: "array", items: idRule, min: 1, max: MAX_AUTHORS }, idRule],
} as const;

export const listFilterParams = {
  order: { type: "enum", values: ["asc", "desc"], optional: true },
  status: { type: "enum", values: ["all", "open", "resolved"], optional: true },
  targetPage: { ...idRule, optional: true },
  authors: authorsRule,
  format: formatRule,
} as const;

/** The emoji of a reaction list as stored; 400 naming the first item that is not one emoji. */
export function emojiList(field: string, values: string[] | undefined): string[] {
  return (values ?? []).map((value, i) => {
    const emoji = normalizeEmoji(value);
    if (!emoji) throw new BadRequestError(`Invalid parameters: '${field}[${i}]' must be one emoji.`);
    return emoji;
  });
}

export function authorList(authors: string | string[] | undefined): string[] | undefined {
  if (authors === undefined) return undefined;
  return typeof authors === "string" ? [authors] : authors;
}
