// Ctrl/Cmd-K (and the header's “Jump to…” link): a modal dialog to jump to one of the viewer's spaces or a
// page of the space being read. The list comes once from `/app/jump?format=json` (as the viewer, so only
// what they may see) and is filtered as one types. A combobox over a listbox: arrows move, Enter goes,
// Escape closes (focus goes back where it was), Tab stays in the dialog. Without script, the link opens
// the server-rendered `/app/jump` page instead.

export interface JumpItem {
  kind: "space" | "page";
  title: string;
  where: string;
  url: string;
}

/** The most results the dialog lists at once. */
export const SHOWN = 50;

/**
 * How well an item matches the query: every word must be in its title or where it is (else -1); a title
 * that starts with the query first, then one with a word starting with it, then any other match.
 */
export function score(item: JumpItem, query: string): number {
  const q = query.trim().toLowerCase();
  if (!q) return 1;
  const title = item.title.toLowerCase();
  const text = `${title} ${item.where.toLowerCase()}`;
  if (!q.split(/\s+/).every((word) => text.includes(word))) return -1;
  if (title.startsWith(q)) return 4;
  if (title.split(/[\s\-_/.]+/).some((word) => word.startsWith(q))) return 3;
  if (title.includes(q)) return 2;
  return 1;
}

/** The items matching the query, best first (the current space's pages before spaces at equal scores), at most SHOWN. */
export function ranked(items: JumpItem[], query: string): JumpItem[] {
  return items
    .map((item, index) => ({ item, index, score: score(item, query) }))
    .filter((r) => r.score >= 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, SHOWN)
    .map((r) => r.item);
}

/** The space whose id is the page's path's (`/s/{space}/…`), for its pages. */
export function spaceOfPath(pathname: string): string | undefined {
  const match = /^\/s\/([A-Za-z0-9_-]{1,64})(?:\/|$)/.exec(pathname);
  return match?.[1];
}

class JumpDialog {
  private readonly dialog: HTMLDialogElement;
  private readonly input: HTMLInputElement;
  private readonly list: HTMLUListElement;
  private readonly status: HTMLElement;
  private items: JumpItem[] | undefined;
  private shown: JumpItem[] = [];
  private active = 0;
  private returnFocus: HTMLElement | null = null;

  constructor(private readonly doc: Document) {
    const dialog = doc.createElement("dialog");
    dialog.className = "jump";
    dialog.id = "jump";
    dialog.setAttribute("aria-labelledby", "jump-title");
    dialog.setAttribute("aria-describedby", "jump-help");
    // Fixed markup only: every title from the list goes in with textContent.
    dialog.innerHTML = `<div class="jump-head"><h2 id="jump-title">Jump to a space or page</h2><button type="button" class="small" id="jump-close">Close</button></div>
<label for="jump-input">Space or page</label>
<input type="text" id="jump-input" role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="jump-options" autocomplete="off" spellcheck="false">
<p class="meta" id="jump-help">Arrow keys to choose, Enter to go, Escape to close.</p>
<p class="meta" id="jump-status" role="status" aria-live="polite"></p>
<ul class="suggestions" id="jump-options" role="listbox" aria-label="Spaces and pages"></ul>`;
    doc.body.append(dialog);
    this.dialog = dialog;
    this.input = dialog.querySelector("#jump-input") as HTMLInputElement;
    this.list = dialog.querySelector("#jump-options") as HTMLUListElement;
    this.status = dialog.querySelector("#jump-status") as HTMLElement;
    (dialog.querySelector("#jump-close") as HTMLButtonElement).addEventListener("click", () => dialog.close());
    this.input.addEventListener("input", () => this.render());
    this.input.addEventListener("keydown", (event) => this.onKey(event));
    dialog.addEventListener("keydown", (event) => this.trapTab(event));
    dialog.addEventListener("close", () => this.returnFocus?.focus());
    // A click on the backdrop (outside the dialog's box) closes it.
    dialog.addEventListener("click", (event) => {
      if (event.target === dialog) {
        const box = dialog.getBoundingClientRect();
        const inside = event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
        if (!inside) dialog.close();
      }
    });
    this.list.addEventListener("mousedown", (event) => event.preventDefault());
    this.list.addEventListener("click", (event) => {
      const option = (event.target as Element).closest("[role=option]");
      if (option) this.go(Number(option.getAttribute("data-index")));
    });
  }

  open(): void {
    if (this.dialog.open) return;
    this.returnFocus = this.doc.activeElement instanceof HTMLElement ? this.doc.activeElement : null;
    this.dialog.showModal();
    this.input.focus();
    this.input.select();
    if (this.items) this.render();
    else void this.load();
  }

  private async load(): Promise<void> {
    this.status.textContent = "Loading…";
    const space = spaceOfPath(this.doc.location.pathname);
    try {
      const res = await fetch(`/app/jump?format=json${space ? `&space=${encodeURIComponent(space)}` : ""}`, { headers: { accept: "application/json" } });
      if (!res.ok) throw new Error(String(res.status));
      const body = (await res.json()) as { spaces: JumpItem[]; pages: JumpItem[] };
      this.items = [...body.pages, ...body.spaces];
      this.render();
    } catch {
      this.status.textContent = "The list could not be loaded. ";
      const link = this.doc.createElement("a");
      link.href = "/app/jump";
      link.textContent = "Open the jump page";
      this.status.append(link);
    }
  }

  private render(): void {
    if (!this.items) return;
    this.shown = ranked(this.items, this.input.value);
    this.active = 0;
    this.list.replaceChildren(
      ...this.shown.map((item, index) => {
        const option = this.doc.createElement("li");
        option.id = `jump-option-${index}`;
        option.setAttribute("role", "option");
        option.setAttribute("data-index", String(index));
        const title = this.doc.createElement("span");
        title.textContent = item.title;
        const where = this.doc.createElement("span");
        where.className = "meta";
        where.textContent = ` ${item.kind} · ${item.where}`;
        option.append(title, where);
        return option;
      }),
    );
    const count = this.shown.length;
    this.status.textContent = count ? `${count} ${count === 1 ? "result" : "results"}${count === SHOWN ? " (the first ones)" : ""}` : "Nothing matches.";
    this.input.setAttribute("aria-expanded", count ? "true" : "false");
    this.highlight();
  }

  private highlight(): void {
    const options = this.list.querySelectorAll("[role=option]");
    options.forEach((option, index) => option.setAttribute("aria-selected", index === this.active ? "true" : "false"));
    const current = options[this.active];
    if (current) {
      this.input.setAttribute("aria-activedescendant", current.id);
      current.scrollIntoView({ block: "nearest" });
    } else this.input.removeAttribute("aria-activedescendant");
  }

  private onKey(event: KeyboardEvent): void {
    const count = this.shown.length;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (!count) return;
      this.active = (this.active + (event.key === "ArrowDown" ? 1 : count - 1)) % count;
      this.highlight();
    } else if (event.key === "Enter") {
      event.preventDefault();
      if (count) this.go(this.active);
    }
  }

  /** Tab and Shift-Tab cycle through the dialog's own controls (the close button and the field). */
  private trapTab(event: KeyboardEvent): void {
    if (event.key !== "Tab") return;
    const focusable = [...this.dialog.querySelectorAll<HTMLElement>("button, input, a[href]")].filter((el) => !el.hasAttribute("disabled"));
    if (!focusable.length) return;
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    const at = this.doc.activeElement;
    if (event.shiftKey && (at === first || !this.dialog.contains(at))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (at === last || !this.dialog.contains(at))) {
      event.preventDefault();
      first.focus();
    }
  }

  private go(index: number): void {
    const item = this.shown[index];
    if (!item) return;
    this.returnFocus = null;
    this.dialog.close();
    this.doc.location.assign(item.url);
  }
}

/** Ctrl/Cmd-K anywhere (unless something on the page took the key, as the block editor's link does) and the header's link open the dialog. */
export function setUpJump(doc: Document): void {
  const link = doc.getElementById("jump-link");
  if (!link) return;
  let dialog: JumpDialog | undefined;
  const open = () => (dialog ??= new JumpDialog(doc)).open();
  doc.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.altKey || event.shiftKey) return;
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k") {
      event.preventDefault();
      open();
    }
  });
  link.addEventListener("click", (event) => {
    // A click meant for a new tab or window keeps the link's page.
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    open();
  });
}
