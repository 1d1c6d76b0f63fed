// Reaction emoji: one RGI emoji (Unicode's recommended set, as V8's \p{RGI_Emoji} knows it), or its code points in hex.
// Built with RegExp: the `v` flag (properties of strings) is newer than the compile target, not than Node 22.
const RGI_EMOJI = new RegExp("^\\p{RGI_Emoji}$", "v");
const CODE_POINTS = /^[0-9a-f]{2,6}(?:[-_ ][0-9a-f]{2,6})*$/i;
const VARIATION_SELECTOR_16 = "\uFE0F";

/** GitBook's Emoji schema allows at most 50 characters. */
export const MAX_EMOJI_LENGTH = 50;

/** The emoji as stored (characters, with the emoji presentation selector where Unicode wants it), or null when `input` is not one emoji. */
export function normalizeEmoji(input: string): string | null {
  if (input.length === 0 || input.length > MAX_EMOJI_LENGTH) return null;
  let text = input;
  if (CODE_POINTS.test(input)) {
    const points = input.split(/[-_ ]/).map((hex) => Number.parseInt(hex, 16));
    if (points.some((p) => p > 0x10ffff)) return null;
    text = String.fromCodePoint(...points);
  }
  if (RGI_EMOJI.test(text)) return text;
  // A text-presentation character (U+2764 "❤") is the same emoji as its emoji presentation ("❤️").
  if (!text.includes(VARIATION_SELECTOR_16) && RGI_EMOJI.test(text + VARIATION_SELECTOR_16)) return text + VARIATION_SELECTOR_16;
  return null;
}
