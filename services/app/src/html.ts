// HTML built from templates whose every interpolated value is escaped, unless it is already Html
// (made by this module or by the Markdown renderer's sanitizer).

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Markup that is safe to place as it is. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type Interpolated = Html | string | number | boolean | null | undefined | Interpolated[];

function render(value: Interpolated): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

/** `html\`<p>${text}</p>\``: text is escaped, Html and arrays of Html are kept. */
export function html(strings: TemplateStringsArray, ...values: Interpolated[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}

/** Markup someone else made safe (the sanitizer's output). */
export function trusted(markup: string): Html {
  return new Html(markup);
}
