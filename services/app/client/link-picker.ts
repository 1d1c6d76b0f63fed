// The link picker: over a selection, a box to type in that lists the change request's pages matching
// it (by title or path); picking one stores GitBook's page reference (`{kind: "page", page: id}`, which
// the server writes as a relative Markdown link and reads back by id), typing an http(s) or mailto
// address stores a URL reference. A combobox with a listbox: arrows, Enter, Escape.
import type { EditorView } from "prosemirror-view";
import { safeUrl } from "./blocks";
import { schema } from "./schema";

export interface PickerPage {
  id: string;
  title: string;
  path: string;
}

type Choice = { kind: "page"; page: PickerPage } | { kind: "url"; url: string };

const MAX_SHOWN = 8;

/** The choices for what is typed: an address first when it is one, then the pages that match. */
export function choicesFor(query: string, pages: PickerPage[]): Choice[] {
  const q = query.trim().toLowerCase();
  const out: Choice[] = [];
  const url = safeUrl(query);
  if (url) out.push({ kind: "url", url });
  if (q && !url) {
    for (const page of pages) {
      if (page.title.toLowerCase().includes(q) || page.path.toLowerCase().includes(q)) out.push({ kind: "page", page });
      if (out.length >= MAX_SHOWN) break;
    }
  }
  return out;
}

export class LinkPicker {
  private readonly box: HTMLDivElement;
  private readonly input: HTMLInputElement;
  private readonly list: HTMLUListElement;
  private choices: Choice[] = [];
  private active = 0;
  private range: { from: number; to: number } | undefined;
  private view: EditorView | undefined;

  constructor(
    parent: Node,
    private readonly pages: PickerPage[],
  ) {
    this.box = document.createElement("div");
    this.box.className = "link-picker";
    this.box.hidden = true;
    const label = document.createElement("label");
    label.htmlFor = "link-input";
    label.textContent = "Link to a page or an address";
    this.input = document.createElement("input");
    this.input.id = "link-input";
    this.input.type = "text";
    this.input.maxLength = 2048;
    this.input.autocomplete = "off";
    this.input.setAttribute("role", "combobox");
    this.input.setAttribute("aria-autocomplete", "list");
    this.input.setAttribute("aria-controls", "link-options");
    this.input.setAttribute("aria-expanded", "false");
    this.list = document.createElement("ul");
    this.list.id = "link-options";
    this.list.setAttribute("role", "listbox");
    this.list.setAttribute("aria-label", "Pages and addresses");
    this.box.append(label, this.input, this.list);
    parent.appendChild(this.box);
    this.input.addEventListener("input", () => {
      this.active = 0;
      this.render();
    });
    this.input.addEventListener("keydown", (event) => this.key(event));
    this.input.addEventListener("blur", () => setTimeout(() => this.box.contains(document.activeElement) || this.close(false), 0));
  }

  open(view: EditorView, from: number, to: number): void {
    this.view = view;
    this.range = { from, to };
    this.input.value = "";
    this.active = 0;
    this.render();
    this.box.hidden = false;
    const coords = view.coordsAtPos(to);
    const origin = (this.box.offsetParent ?? document.body).getBoundingClientRect();
    this.box.style.left = `${Math.max(0, coords.left - origin.left)}px`;
    this.box.style.top = `${coords.bottom - origin.top + 6}px`;
    this.input.focus();
  }

  private render(): void {
    this.choices = choicesFor(this.input.value, this.pages);
    this.list.replaceChildren(
      ...this.choices.map((choice, i) => {
        const li = document.createElement("li");
        li.id = `link-option-${i}`;
        li.setAttribute("role", "option");
        li.setAttribute("aria-selected", String(i === this.active));
        li.textContent = choice.kind === "url" ? `Address: ${choice.url}` : `${choice.page.title} (${choice.page.path || "/"})`;
        li.addEventListener("mousedown", (event) => {
          event.preventDefault();
          this.choose(choice);
        });
        return li;
      }),
    );
    this.input.setAttribute("aria-expanded", String(this.choices.length > 0));
    if (this.choices[this.active]) this.input.setAttribute("aria-activedescendant", `link-option-${this.active}`);
    else this.input.removeAttribute("aria-activedescendant");
  }

  private key(event: KeyboardEvent): void {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (this.choices.length) this.active = (this.active + (event.key === "ArrowDown" ? 1 : this.choices.length - 1)) % this.choices.length;
      this.render();
    } else if (event.key === "Enter") {
      event.preventDefault();
      const choice = this.choices[this.active];
      if (choice) this.choose(choice);
    } else if (event.key === "Escape") {
      event.preventDefault();
      this.close(true);
    }
  }

  private choose(choice: Choice): void {
    const view = this.view;
    const range = this.range;
    if (view && range) {
      const ref = choice.kind === "url" ? { kind: "url", url: choice.url } : { kind: "page", page: choice.page.id };
      view.dispatch(view.state.tr.addMark(range.from, range.to, schema.marks.link.create({ data: { ref } })));
    }
    this.close(true);
  }

  private close(refocus: boolean): void {
    if (this.box.hidden) return;
    this.box.hidden = true;
    this.range = undefined;
    if (refocus) this.view?.focus();
  }
}
