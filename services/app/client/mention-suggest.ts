// @ suggestions in the comment boxes (a `data-mentions` field: the comment textarea and the reply fields):
// typing @ and the start of a name lists members of the space's organization who can read the space
// (`GET /s/{space}/~/mentions?q=`, as the viewer); arrows move, Enter or Tab inserts GitBook's mention
// `@[Name](user:ID)`, Escape closes. Without script the same syntax can be typed by hand.

export interface Suggestion {
  id: string;
  name: string;
}

/** The `@query` being typed just before the caret (after a space, a bracket or the start), or undefined. */
export function mentionAt(value: string, caret: number): { start: number; query: string } | undefined {
  const match = /(?:^|[\s(])@([^\s@[\]()]{0,40})$/.exec(value.slice(0, caret));
  return match ? { start: caret - match[1].length - 1, query: match[1] } : undefined;
}

/** GitBook's mention of a user: the name without what would end it (`]`, a line break), at most 200 characters. */
export function mentionOf(suggestion: Suggestion): string {
  const name = suggestion.name.replace(/[[\]\n\r]/g, " ").trim().slice(0, 200) || suggestion.id;
  return `@[${name}](user:${suggestion.id})`;
}

/** The field's value with `@query` (from `start` to the caret) replaced by the mention and a space; the new caret. */
export function insertMention(value: string, start: number, caret: number, suggestion: Suggestion): { value: string; caret: number } {
  const inserted = `${mentionOf(suggestion)} `;
  return { value: value.slice(0, start) + inserted + value.slice(caret), caret: start + inserted.length };
}

let fields = 0;

function attach(doc: Document, field: HTMLTextAreaElement | HTMLInputElement, url: string): void {
  const id = field.id || `mention-field-${++fields}`;
  field.id = id;
  const list = doc.createElement("ul");
  list.id = `${id}-mentions`;
  list.className = "suggestions mentions";
  list.setAttribute("role", "listbox");
  list.setAttribute("aria-label", "People to mention");
  list.hidden = true;
  const status = doc.createElement("span");
  status.className = "visually-hidden";
  status.setAttribute("role", "status");
  field.after(list, status);
  field.setAttribute("aria-autocomplete", "list");
  field.setAttribute("aria-controls", list.id);

  let shown: Suggestion[] = [];
  let active = 0;
  let typing: { start: number; query: string } | undefined;
  let asked = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cache = new Map<string, Suggestion[]>();

  const close = () => {
    list.hidden = true;
    list.replaceChildren();
    shown = [];
    field.removeAttribute("aria-activedescendant");
  };
  const highlight = () => {
    const options = list.querySelectorAll("[role=option]");
    options.forEach((o, i) => o.setAttribute("aria-selected", i === active ? "true" : "false"));
    const current = options[active];
    if (current) {
      field.setAttribute("aria-activedescendant", current.id);
      current.scrollIntoView({ block: "nearest" });
    } else field.removeAttribute("aria-activedescendant");
  };
  const show = (suggestions: Suggestion[]) => {
    shown = suggestions;
    active = 0;
    if (!suggestions.length) {
      close();
      status.textContent = "No member to mention matches.";
      return;
    }
    list.replaceChildren(
      ...suggestions.map((s, i) => {
        const option = doc.createElement("li");
        option.id = `${list.id}-${i}`;
        option.setAttribute("role", "option");
        option.setAttribute("data-index", String(i));
        option.textContent = s.name;
        return option;
      }),
    );
    list.hidden = false;
    status.textContent = `${suggestions.length} ${suggestions.length === 1 ? "person" : "people"} to mention: arrow keys to choose, Enter to insert, Escape to close.`;
    highlight();
  };
  const pick = (index: number) => {
    const suggestion = shown[index];
    if (!suggestion || !typing) return;
    const caret = field.selectionStart ?? field.value.length;
    const next = insertMention(field.value, typing.start, caret, suggestion);
    field.value = next.value;
    field.setSelectionRange(next.caret, next.caret);
    typing = undefined;
    close();
    status.textContent = `${suggestion.name} mentioned.`;
    field.focus();
  };
  const ask = async (query: string) => {
    const ticket = ++asked;
    let suggestions = cache.get(query);
    if (!suggestions) {
      try {
        const res = await fetch(`${url}?q=${encodeURIComponent(query)}`, { headers: { accept: "application/json" } });
        if (!res.ok) throw new Error(String(res.status));
        suggestions = ((await res.json()) as { items: Suggestion[] }).items;
        cache.set(query, suggestions);
      } catch {
        suggestions = [];
      }
    }
    // Only the answer to what is typed now is shown.
    if (ticket === asked && typing && typing.query === query) show(suggestions);
  };
  const update = () => {
    typing = mentionAt(field.value, field.selectionStart ?? field.value.length);
    if (timer) clearTimeout(timer);
    if (!typing) {
      close();
      return;
    }
    const query = typing.query;
    timer = setTimeout(() => void ask(query), 120);
  };

  field.addEventListener("input", update);
  field.addEventListener("blur", close);
  field.addEventListener("keydown", (event) => {
    const e = event as KeyboardEvent;
    if (list.hidden || !shown.length) return;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      active = (active + (e.key === "ArrowDown" ? 1 : shown.length - 1)) % shown.length;
      highlight();
    } else if (e.key === "Enter" || e.key === "Tab") {
      e.preventDefault();
      pick(active);
    } else if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      typing = undefined;
      close();
    }
  });
  // A click picks without taking the focus from the field first.
  list.addEventListener("mousedown", (event) => {
    event.preventDefault();
    const option = (event.target as Element).closest("[role=option]");
    if (option) pick(Number(option.getAttribute("data-index")));
  });
}

export function setUpMentions(doc: Document): void {
  for (const field of doc.querySelectorAll<HTMLTextAreaElement | HTMLInputElement>("textarea[data-mentions], input[data-mentions]")) {
    const url = field.getAttribute("data-mentions") ?? "";
    if (/^\/s\/[A-Za-z0-9_%-]+\/~\/mentions$/.test(url)) attach(doc, field, url);
  }
}
