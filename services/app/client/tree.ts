// The arrange page's tree (`…/changes/{n}/~pages`, pages/changes.ts): a page's row is dragged onto another to
// go before it (its top part), inside it (its middle: last of its subpages; not a link) or after it (its bottom
// part), posted with the page's hidden `tree-place` form, which the server checks and turns into GitBook's
// `update_page` with `into`/`at` (a page group only beside a top-level page). A title is renamed in place (its Rename button, or a double click): Enter
// saves through the row's rename form, Escape gives up. Without script (or keyboard only) the rows' Up, Down,
// Nest, Un-nest buttons and the rename form do the same.

export type Position = "before" | "after" | "inside";

/** Where a drop at `y` on a row from `top` of `height` puts the page: the middle third goes inside (when it may). */
export function dropPosition(top: number, height: number, y: number, mayHold: boolean): Position {
  const at = height > 0 ? (y - top) / height : 0.5;
  if (mayHold && at > 1 / 3 && at < 2 / 3) return "inside";
  return at < 0.5 ? "before" : "after";
}

export function setUpTree(doc: Document): void {
  const root = doc.querySelector<HTMLElement>("ol[data-arrange]");
  const place = doc.getElementById("tree-place");
  if (!root || !(place instanceof HTMLFormElement)) return;
  let dragged: HTMLElement | undefined;
  const field = (form: HTMLFormElement, name: string) => form.elements.namedItem(name) as HTMLInputElement;
  const clear = () => {
    for (const row of root.querySelectorAll<HTMLElement>("[data-drop]")) delete row.dataset.drop;
  };
  /** Whether the dragged row is a page group (it stays at the top level: beside top-level rows only, never inside one). */
  const groupDragged = () => dragged?.dataset.type === "group";
  const topLevel = (row: HTMLElement) => row.parentElement?.parentElement === root;
  /** May the dragged row go onto `row`: not itself, nor one of its own subpages (a group: only beside a top-level page). */
  const allowed = (row: HTMLElement) => dragged !== undefined && row !== dragged && !dragged.parentElement?.contains(row) && (!groupDragged() || topLevel(row));
  const positionOn = (row: HTMLElement, y: number): Position => {
    const box = row.getBoundingClientRect();
    return dropPosition(box.top, box.height, y, row.dataset.type !== "link" && !groupDragged());
  };

  for (const row of root.querySelectorAll<HTMLElement>(".tree-row")) {
    row.draggable = true;
    row.addEventListener("dragstart", (event) => {
      // Not from a field or a button of the row (selecting text in the rename box).
      if ((event.target as HTMLElement).closest("input, button, summary, form") && event.target !== row) return;
      dragged = row;
      row.classList.add("dragging");
      event.dataTransfer?.setData("text/plain", row.dataset.page ?? "");
      if (event.dataTransfer) event.dataTransfer.effectAllowed = "move";
    });
    row.addEventListener("dragend", () => {
      row.classList.remove("dragging");
      dragged = undefined;
      clear();
    });
    row.addEventListener("dragover", (event) => {
      if (!allowed(row)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = "move";
      const position = positionOn(row, event.clientY);
      if (row.dataset.drop !== position) {
        clear();
        row.dataset.drop = position;
      }
    });
    row.addEventListener("dragleave", (event) => {
      if (!row.contains(event.relatedTarget as Node | null)) delete row.dataset.drop;
    });
    row.addEventListener("drop", (event) => {
      if (!dragged || !allowed(row)) return;
      event.preventDefault();
      const position = positionOn(row, event.clientY);
      field(place, "page").value = dragged.dataset.page ?? "";
      field(place, "target").value = row.dataset.page ?? "";
      field(place, "position").value = position;
      clear();
      root.setAttribute("aria-busy", "true");
      place.submit();
    });

    // Rename in place: the title becomes a text box; Enter saves (the row's rename form), Escape gives up.
    const title = row.querySelector<HTMLElement>(".page-title");
    const details = row.querySelector<HTMLDetailsElement>("details.rename");
    const form = details?.querySelector<HTMLFormElement>("form");
    if (!title || !details || !form) continue;
    const edit = () => {
      if (row.querySelector(".title-edit")) return;
      const box = doc.createElement("input");
      box.type = "text";
      box.className = "title-edit";
      box.value = title.textContent ?? "";
      box.maxLength = 200;
      box.setAttribute("aria-label", `New title of ${title.textContent ?? "the page"}`);
      title.hidden = true;
      details.hidden = true;
      title.after(box);
      box.focus();
      box.select();
      let finished = false;
      const done = (save: boolean) => {
        // Once: removing the box blurs it, and the blur would end it again.
        if (finished) return;
        finished = true;
        const value = box.value.trim();
        if (save && value && value !== title.textContent) {
          field(form, "title").value = value;
          form.submit();
          return;
        }
        box.remove();
        title.hidden = false;
        details.hidden = false;
        details.querySelector("summary")?.focus();
      };
      box.addEventListener("keydown", (event) => {
        if (event.key === "Enter") {
          event.preventDefault();
          done(true);
        } else if (event.key === "Escape") {
          event.preventDefault();
          done(false);
        }
      });
      box.addEventListener("blur", () => done(false));
    };
    details.querySelector("summary")?.addEventListener("click", (event) => {
      event.preventDefault();
      edit();
    });
    title.addEventListener("dblclick", edit);
  }
}
