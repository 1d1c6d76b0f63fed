// Drag handles: hovering a block of the page shows a handle left of it; dragging the handle moves the block
// (ProseMirror's own drop: the block is taken out where it was and put where the drop cursor shows). For the
// mouse only: from the keyboard, Alt+ArrowUp/ArrowDown move the block the cursor is in (blocks.ts moveBlock).
import { NodeSelection, Plugin } from "prosemirror-state";
import type { EditorView } from "prosemirror-view";

/** The position before the top-level block at the height `y` of the page, if any. */
function blockAt(view: EditorView, y: number): number | undefined {
  const box = view.dom.getBoundingClientRect();
  if (y < box.top || y > box.bottom) return undefined;
  const found = view.posAtCoords({ left: box.left + Math.min(24, box.width / 2), top: y });
  if (!found) return undefined;
  const $pos = view.state.doc.resolve(found.inside >= 0 ? found.inside : found.pos);
  if ($pos.depth === 0) return view.state.doc.nodeAt($pos.pos) ? $pos.pos : undefined;
  return $pos.before(1);
}

export function blockHandles(): Plugin {
  return new Plugin({
    view(view) {
      const handle = document.createElement("div");
      handle.className = "block-handle";
      handle.draggable = true;
      handle.title = "Drag to move this block (Alt+Arrow keys from the keyboard)";
      handle.setAttribute("aria-hidden", "true");
      handle.textContent = "⠿";
      handle.hidden = true;
      view.dom.parentNode?.appendChild(handle);
      let at: number | undefined;

      const show = (event: MouseEvent) => {
        // Never while a button is down (the handle being dragged, a selection being made).
        if (view.dragging || event.buttons !== 0) return;
        const pos = blockAt(view, event.clientY);
        const dom = pos === undefined ? null : (view.nodeDOM(pos) as HTMLElement | null);
        if (pos === undefined || !dom || !(dom instanceof HTMLElement)) return;
        at = pos;
        // Shown first: a hidden handle has no offset parent to place it against.
        handle.hidden = false;
        const parent = (handle.offsetParent ?? document.body).getBoundingClientRect();
        const rect = dom.getBoundingClientRect();
        handle.style.top = `${rect.top - parent.top}px`;
        // In the page's left padding, beside the block.
        handle.style.left = `${view.dom.getBoundingClientRect().left - parent.left + 1}px`;
      };
      const area = view.dom.parentNode as HTMLElement | null;
      area?.addEventListener("mousemove", show);

      handle.addEventListener("dragstart", (event) => {
        if (at === undefined || !event.dataTransfer || !view.state.doc.nodeAt(at)) return;
        const selection = NodeSelection.create(view.state.doc, at);
        view.dispatch(view.state.tr.setSelection(selection));
        const slice = selection.content();
        const { dom, text } = view.serializeForClipboard(slice);
        event.dataTransfer.clearData();
        event.dataTransfer.setData("text/html", dom.innerHTML);
        event.dataTransfer.setData("text/plain", text);
        event.dataTransfer.effectAllowed = "copyMove";
        const blockDom = view.nodeDOM(at);
        if (blockDom instanceof HTMLElement) event.dataTransfer.setDragImage(blockDom, 0, 0);
        // ProseMirror's drop reads this: a move, the selected block taken out where it was.
        view.dragging = { slice, move: true };
      });
      handle.addEventListener("dragend", () => {
        view.dragging = null;
        handle.hidden = true;
      });

      return {
        update() {
          // The page changed under the handle: it shows again on the next mouse move.
          if (at !== undefined && at > view.state.doc.content.size) at = undefined;
        },
        destroy() {
          area?.removeEventListener("mousemove", show);
          handle.remove();
        },
      };
    },
  });
}
