// fastest-validator rules of the service's parameters.
import { urlRule } from "@docshelf/validation";

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const slugMessages = { stringPattern: "The '{field}' field must be lower-case letters and digits in words joined by single hyphens." };

export const slugRule = { type: "string", min: 1, max: 100, pattern: SLUG_PATTERN, messages: slugMessages } as const;

/** `{url}` or `{text}`; exactly one is checked in the handler (fastest-validator has no oneOf on props). */
export const sourceRule = {
  type: "object",
  strict: true,
  props: {
    url: urlRule(2048, { optional: true }),
    text: { type: "string", min: 1, optional: true },
  },
} as const;
