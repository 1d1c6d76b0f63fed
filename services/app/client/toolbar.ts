// The floating toolbar: over a selection of text, buttons for GitBook's marks (bold, italic,
// strikethrough, code) and links; each shows whether the whole selection has it (aria-pressed).
import { toggleMark } from "prosemirror-commands";
import type { MarkType } from "prosemirror-model";
import { Plugin, type Command, type EditorState } from "prosemirror-state";
import type { EditorView } from "prosemirror-view";
import type { LinkPicker } from "./link-picker";
import { schema } from "./schema";

function markActive(state: EditorState, type: MarkType): boolean {
  const { from, to, empty, $from } = state.selection;
  if (empty) return !!type.isInSet(state.storedMarks ?? $from.marks());
  return state.doc.rangeHasMark(from, to, type);
}

/** Removes the selection's link, or opens the link picker (a page or an address) for it. */
export function toggleLink(picker: LinkPicker): Command {
  return (state, dispatch, view) => {
    const { from, to, empty } = state.selection;
    if (empty) return false;
    const link = schema.marks.link;
    if (state.doc.rangeHasMark(from, to, link)) {
      if (dispatch) dispatch(state.tr.removeMark(from, to, link));
      return true;
    }
    if (dispatch && view) picker.open(view, from, to);
    return true;
  };
}

const BUTTONS: Array<{ id: string; label: string; text: string; mark?: string }> = [
  { id: "bold", label: "Bold", text: "B", mark: "bold" },
  { id: "italic", label: "Italic", text: "I", mark: "italic" },
  { id: "strikethrough", label: "Strikethrough", text: "S", mark: "strikethrough" },
  { id: "code", label: "Code", text: "</>", mark: "code" },
  { id: "link", label: "Link", text: "Link", mark: "link" },
];

export function floatingToolbar(picker: LinkPicker): Plugin {
  return new Plugin({
    view(view) {
      const bar = document.createElement("div");
      bar.className = "format-bar";
      bar.setAttribute("role", "toolbar");
      bar.setAttribute("aria-label", "Format");
      bar.hidden = true;
      const buttons = BUTTONS.map((b) => {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = b.text;
        button.setAttribute("aria-label", b.label);
        button.dataset.mark = b.id;
        button.className = `mark-${b.id}`;
        // Keep the editor's selection: act on mousedown, before focus moves.
        button.addEventListener("mousedown", (event) => {
          event.preventDefault();
          run(view, b.id);
        });
        button.addEventListener("click", (event) => {
          if (event.detail === 0) run(view, b.id); // a keyboard press (no mouse)
        });
        bar.append(button);
        return { button, mark: b.mark };
      });
      view.dom.parentNode?.appendChild(bar);
      const run = (view: EditorView, id: string) => {
        const command = id === "link" ? toggleLink(picker) : toggleMark(schema.marks[id]);
        if (id !== "link") view.focus();
        command(view.state, view.dispatch, view);
      };
      const update = (view: EditorView) => {
        const { empty, from } = view.state.selection;
        const textSelected = !empty && view.state.selection.content().content.size > 0 && !(view.state.selection as { node?: unknown }).node;
        if (!textSelected || !(view.hasFocus() || bar.contains(document.activeElement))) {
          bar.hidden = true;
          return;
        }
        bar.hidden = false;
        for (const { button, mark } of buttons) if (mark) button.setAttribute("aria-pressed", String(markActive(view.state, schema.marks[mark])));
        const coords = view.coordsAtPos(from);
        const box = (bar.offsetParent ?? document.body).getBoundingClientRect();
        bar.style.left = `${Math.max(0, coords.left - box.left)}px`;
        bar.style.top = `${coords.top - box.top - bar.offsetHeight - 6}px`;
      };
      return { update, destroy: () => bar.remove() };
    },
  });
}
