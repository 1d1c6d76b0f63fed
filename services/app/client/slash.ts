// The slash menu: typing `/` at the start of an empty paragraph opens a list of blocks to insert,
// filtered by what follows the slash; arrows move, Enter or Tab inserts, Escape closes. A listbox with
// the active option named by aria-activedescendant, so a screen reader follows it.
import { Plugin, PluginKey, type EditorState } from "prosemirror-state";
import type { EditorView } from "prosemirror-view";
import { matching, placeBlock, type BlockItem } from "./blocks";

const QUERY = /^\/([\w ]{0,30})$/;

interface Open {
  query: string;
  /** Where the `/` is. */
  from: number;
  to: number;
}

/** The `/query` the cursor ends, alone in its paragraph, if any. */
function openAt(state: EditorState): Open | undefined {
  const { $from, empty } = state.selection;
  if (!empty || $from.parent.type.name !== "paragraph" || $from.parentOffset !== $from.parent.content.size) return undefined;
  const match = QUERY.exec($from.parent.textContent);
  return match ? { query: match[1], from: $from.start(), to: $from.pos } : undefined;
}

export const slashKey = new PluginKey<{ dismissedAt: number | null }>("slash");

export function slashMenu(ask: (question: string) => string | null): Plugin {
  let menu: HTMLUListElement | undefined;
  let items: BlockItem[] = [];
  let active = 0;
  let open: Open | undefined;

  const render = (view: EditorView) => {
    if (!menu) return;
    menu.replaceChildren(
      ...items.map((item, i) => {
        const li = document.createElement("li");
        li.id = `slash-${item.id}`;
        li.setAttribute("role", "option");
        li.setAttribute("aria-selected", String(i === active));
        li.dataset.block = item.id;
        li.textContent = item.title;
        li.addEventListener("mousedown", (event) => {
          event.preventDefault();
          choose(view, item);
        });
        return li;
      }),
    );
    if (items.length === 0) {
      const li = document.createElement("li");
      li.className = "empty";
      li.textContent = "No block matches";
      menu.append(li);
    }
    view.dom.setAttribute("aria-activedescendant", items[active] ? `slash-${items[active].id}` : "");
  };

  const choose = (view: EditorView, item: BlockItem) => {
    if (!open) return;
    const node = item.make(ask);
    const state = view.state;
    const tr = state.tr.delete(open.from, open.to);
    if (!node) {
      view.dispatch(tr);
      view.focus();
      return;
    }
    view.dispatch(tr);
    view.dispatch(placeBlock(view.state, node));
    view.focus();
  };

  return new Plugin({
    key: slashKey,
    state: {
      init: (): { dismissedAt: number | null } => ({ dismissedAt: null }),
      apply(tr, value, _old, state) {
        const meta = tr.getMeta(slashKey) as { dismissedAt: number | null } | undefined;
        if (meta) return meta;
        // A dismissal lasts while the same `/` is there.
        return value.dismissedAt !== null && openAt(state)?.from === tr.mapping.map(value.dismissedAt) ? { dismissedAt: tr.mapping.map(value.dismissedAt) } : { dismissedAt: null };
      },
    },
    view(view) {
      menu = document.createElement("ul");
      menu.className = "slash-menu";
      menu.id = "slash-menu";
      menu.setAttribute("role", "listbox");
      menu.setAttribute("aria-label", "Insert a block");
      menu.hidden = true;
      view.dom.parentNode?.appendChild(menu);
      view.dom.setAttribute("aria-controls", "slash-menu");
      const update = (view: EditorView) => {
        const found = openAt(view.state);
        const dismissed = slashKey.getState(view.state)?.dismissedAt;
        const wasOpen = open;
        open = found && dismissed !== found.from ? found : undefined;
        if (!menu) return;
        if (!open) {
          menu.hidden = true;
          view.dom.removeAttribute("aria-activedescendant");
          return;
        }
        if (!wasOpen || wasOpen.query !== open.query) active = 0;
        items = matching(open.query);
        menu.hidden = false;
        const coords = view.coordsAtPos(open.to);
        const box = (menu.offsetParent ?? document.body).getBoundingClientRect();
        menu.style.left = `${coords.left - box.left}px`;
        menu.style.top = `${coords.bottom - box.top + 4}px`;
        render(view);
      };
      update(view);
      return { update, destroy: () => menu?.remove() };
    },
    props: {
      handleKeyDown(view, event) {
        if (!open) return false;
        if (event.key === "ArrowDown" || event.key === "ArrowUp") {
          if (items.length) active = (active + (event.key === "ArrowDown" ? 1 : items.length - 1)) % items.length;
          render(view);
          menu?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: "nearest" });
          return true;
        }
        if ((event.key === "Enter" || event.key === "Tab") && items[active]) {
          choose(view, items[active]);
          return true;
        }
        if (event.key === "Escape") {
          view.dispatch(view.state.tr.setMeta(slashKey, { dismissedAt: open.from }));
          return true;
        }
        return false;
      },
    },
  });
}
