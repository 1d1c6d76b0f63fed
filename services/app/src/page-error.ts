// The errors a page's code gives up with (not found, a bad form), shown as the message page of their status.

/** An answer the page code gives up with (not found, forbidden, a bad form). */
export class PageError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    message: string,
  ) {
    super(message);
  }
}

export function notFound(): PageError {
  return new PageError(404, "Not found", "There is nothing here, or you cannot see it.");
}

/** A form's value the page refuses before any action is called: a 400 page with the message (which names the field). */
export function badForm(message: string): PageError {
  return new PageError(400, "That did not work", message);
}

/**
 * The message of an action's refusal as a person reads it: a parameters validation error (moleculer's 422,
 * whose message says only "Parameters validation error!") names each field from its data instead.
 */
export function refusalMessage(err: unknown): string {
  const data = (err as { data?: unknown }).data;
  if (Array.isArray(data)) {
    const named = data
      .map((d) => (d && typeof d === "object" && typeof (d as { message?: unknown }).message === "string" ? (d as { message: string }).message : ""))
      .filter(Boolean);
    if (named.length) return named.slice(0, 5).join(" ");
  }
  return (err as Error).message || "The request was refused.";
}
