// Mentions in comment and reply bodies. The one form that notifies is GitBook's: `@[Display Name](user:USER_ID)`
// (what an autocomplete inserts: the id is unambiguous, the name is only what readers see). Plain `@name` is text.

/** The most users one comment or reply notifies by mentioning them; mentions past these are text. */
export const MAX_MENTIONS = 20;

// The name: up to 200 characters without `]` or a line break; the id: idRule's characters and length.
const MENTION = /@\[([^\]\n]{0,200})\]\(user:([A-Za-z0-9_-]{1,64})\)/g;

/** The distinct user ids the Markdown mentions, in order, at most `max` of them. */
export function mentionedUserIds(markdown: string, max = MAX_MENTIONS): string[] {
  const ids = new Set<string>();
  for (const match of markdown.matchAll(MENTION)) {
    ids.add(match[2]);
    if (ids.size >= max) break;
  }
  return [...ids];
}

/** The Markdown with each mention as `@Name`, the way people read it (a notification's excerpt). */
export function mentionsAsText(markdown: string): string {
  return markdown.replace(MENTION, (_, name: string) => `@${name}`);
}
