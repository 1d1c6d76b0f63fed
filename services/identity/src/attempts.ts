// Rate limits and lockout of sign-in: per account email (failed passwords lock it for a while, whether
// or not an account has that email, so a lockout tells nothing) and per client address (every attempt,
// and every email asked for). Counted in the store, so every identity replica sees the same counts.
import { ConflictError } from "@docshelf/errors";
import { op, type Collection } from "@docshelf/store";
import type { AttemptDoc } from "./models";

export const WINDOW_MS = 15 * 60_000;
/** Failed passwords for one email in a window before it is locked until the window ends. */
export const ACCOUNT_FAILURES = 5;
/** Sign-in attempts and email requests from one client address in a window. */
export const ADDRESS_ATTEMPTS = 30;
/** Emails (reset or sign-in links) sent to one address in a window. */
export const EMAILS_PER_ADDRESS = 3;

async function current(attempts: Collection<AttemptDoc>, id: string, now: number): Promise<AttemptDoc | null> {
  const doc = await attempts.findOne({ id });
  if (doc && doc.windowEnds <= now) {
    await attempts.deleteOne({ id, windowEnds: doc.windowEnds });
    return null;
  }
  return doc;
}

/** The count of `id` in its window. */
export async function countOf(attempts: Collection<AttemptDoc>, id: string): Promise<number> {
  return (await current(attempts, id, Date.now()))?.count ?? 0;
}

/** Counts one more for `id`; answers the count, this one included. */
export async function hit(attempts: Collection<AttemptDoc>, id: string): Promise<number> {
  const now = Date.now();
  if (!(await current(attempts, id, now))) {
    try {
      await attempts.insert({ id, count: 1, windowEnds: now + WINDOW_MS });
      return 1;
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err; // another attempt at the same moment opened the window
    }
  }
  const doc = await attempts.updateOne({ id }, { $inc: { count: 1 } });
  return doc?.count ?? 1;
}

export async function clear(attempts: Collection<AttemptDoc>, id: string): Promise<void> {
  await attempts.deleteOne({ id });
}

export async function prune(attempts: Collection<AttemptDoc>): Promise<void> {
  await attempts.deleteMany({ windowEnds: op.lt(Date.now()) });
}

export const accountKey = (email: string) => `account:${email.toLowerCase()}`;
export const addressKey = (address: string) => `address:${address}`;
export const mailKey = (email: string) => `mail:${email.toLowerCase()}`;
/** Notification emails to one user in a window (past these, notifications show in the app only). */
export const NOTIFICATION_MAILS = 20;
export const notificationMailKey = (userId: string) => `notification-mail:${userId}`;
