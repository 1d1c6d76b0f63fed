// The block bar: the settings of the block the cursor is in (or the image selected), beside it: a code block's
// language, title and line numbers, a hint's style, a tab's title, an image's alt text, caption and width, a
// table's rows and columns and a column's text alignment (buttons: table.ts). Reached with Tab from the editor
// (it follows it in the page), Escape goes back to the text. Each change sets the block's GitBook `data` (an image's caption: its `caption` fragment).
import type { Node as PMNode } from "prosemirror-model";
import { NodeSelection, Plugin, type EditorState } from "prosemirror-state";
import type { EditorView } from "prosemirror-view";
import { TABLE_ACTIONS } from "./table";
import { captionOf, lengthText, parseLength, withAlt, withCaption } from "./image";

type Data = Record<string, unknown>;

interface Field {
  key: string;
  label: string;
  kind: "text" | "checkbox" | "select";
  options?: string[];
  maxLength?: number;
  placeholder?: string;
  /** The field's value on the node (default: `data[key]`). */
  read?(node: PMNode): string;
  /** The node's attributes for a value typed in (default: `data[key]` set, or removed when empty); undefined: not a value it takes. */
  write?(node: PMNode, value: string): Record<string, unknown> | undefined;
}

const FIELDS: Record<string, Field[]> = {
  code_block: [
    { key: "syntax", label: "Language", kind: "text", maxLength: 40 },
    { key: "title", label: "Title", kind: "text", maxLength: 200 },
    { key: "lineNumbers", label: "Line numbers", kind: "checkbox" },
  ],
  hint: [{ key: "style", label: "Hint style", kind: "select", options: ["info", "success", "warning", "danger"] }],
  tabs_item: [{ key: "title", label: "Tab title", kind: "text", maxLength: 200 }],
  image: [
    // GitBook's image `alt`: what a reader who cannot see the image is told (its box in the editor shows it too).
    { key: "alt", label: "Alt text", kind: "text", maxLength: 500, write: (node, value) => ({ ...node.attrs, data: withAlt(node.attrs.data, value) }) },
    { key: "caption", label: "Caption", kind: "text", maxLength: 500, read: captionOf, write: (node, value) => ({ ...node.attrs, fragments: withCaption(node.attrs.fragments, value) }) },
    {
      key: "width",
      label: "Width",
      kind: "text",
      maxLength: 8,
      placeholder: "480 or 50%",
      read: (node) => lengthText((node.attrs.data as Data | null)?.width),
      write: (node, value) => {
        const data: Data = { ...((node.attrs.data as Data | null) ?? {}) };
        if (value === "") delete data.width;
        else {
          const width = parseLength(value);
          if (width === undefined) return undefined;
          data.width = width;
        }
        return { ...node.attrs, data };
      },
    },
  ],
  table: [],
};

const LABELS: Record<string, string> = { code_block: "Code block settings", hint: "Hint settings", tabs_item: "Tab settings", image: "Image settings", table: "Table rows and columns" };

/** The block with settings the selection is on: the image selected, or the innermost block around the selection, and where it starts. */
function target(state: EditorState): { node: PMNode; pos: number } | undefined {
  const selection = state.selection;
  if (selection instanceof NodeSelection && FIELDS[selection.node.type.name]) return { node: selection.node, pos: selection.from };
  const { $from } = selection;
  for (let d = $from.depth; d > 0; d--) {
    const node = $from.node(d);
    if (FIELDS[node.type.name]) return { node, pos: $from.before(d) };
  }
  return undefined;
}

export function blockBar(): Plugin {
  return new Plugin({
    view(view) {
      const bar = document.createElement("div");
      bar.className = "block-bar";
      bar.setAttribute("role", "group");
      bar.hidden = true;
      view.dom.parentNode?.appendChild(bar);
      let current: { type: string; pos: number } | undefined;

      const set = (field: Field, value: unknown) => {
        if (!current) return;
        const node = view.state.doc.nodeAt(current.pos);
        if (!node || node.type.name !== current.type) return;
        let attrs: Record<string, unknown> | undefined;
        if (field.write) attrs = field.write(node, String(value));
        else {
          const data: Data = { ...((node.attrs.data as Data | null) ?? {}) };
          if (value === "" || value === false || value === undefined) delete data[field.key];
          else data[field.key] = value;
          attrs = { ...node.attrs, data };
        }
        const input = bar.querySelector<HTMLInputElement>(`[data-key="${field.key}"]`);
        input?.setAttribute("aria-invalid", String(attrs === undefined));
        if (!attrs) return;
        const tr = view.state.tr.setNodeMarkup(current.pos, undefined, attrs);
        // An image stays selected (its attributes are set by replacing it, which would drop the selection).
        if (view.state.selection instanceof NodeSelection && view.state.selection.from === current.pos) tr.setSelection(NodeSelection.create(tr.doc, current.pos));
        view.dispatch(tr);
      };

      const build = (type: string) => {
        bar.replaceChildren();
        bar.setAttribute("aria-label", LABELS[type] ?? "Block settings");
        if (type === "table") {
          for (const action of TABLE_ACTIONS) {
            const button = document.createElement("button");
            button.type = "button";
            button.className = "small";
            button.dataset.action = action.id;
            button.textContent = action.label;
            // A click keeps the editor's selection (the cell the row or column is counted from).
            button.addEventListener("mousedown", (event) => event.preventDefault());
            button.addEventListener("click", () => {
              action.run(view.state, view.dispatch, view);
              if (document.activeElement !== button) view.focus();
            });
            button.addEventListener("keydown", (event) => {
              if (event.key === "Escape") {
                event.preventDefault();
                view.focus();
              }
            });
            bar.append(button);
          }
          return;
        }
        for (const field of FIELDS[type]) {
          const label = document.createElement("label");
          const id = `block-${type}-${field.key}`;
          label.htmlFor = id;
          label.textContent = field.label;
          let input: HTMLInputElement | HTMLSelectElement;
          if (field.kind === "select") {
            const select = document.createElement("select");
            for (const option of field.options ?? []) select.append(new Option(option, option));
            select.addEventListener("change", () => set(field, select.value));
            input = select;
          } else {
            const box = document.createElement("input");
            box.type = field.kind;
            if (field.maxLength) box.maxLength = field.maxLength;
            if (field.placeholder) box.placeholder = field.placeholder;
            box.addEventListener(field.kind === "checkbox" ? "change" : "input", () => set(field, field.kind === "checkbox" ? box.checked : box.value.trim()));
            input = box;
          }
          input.id = id;
          input.dataset.key = field.key;
          input.addEventListener("keydown", (event) => {
            const key = (event as KeyboardEvent).key;
            if (key === "Escape" || (key === "Enter" && field.kind !== "select")) {
              event.preventDefault();
              view.focus();
            }
          });
          // A label and its field stay together when the bar wraps (a narrow screen).
          const pair = document.createElement("span");
          pair.className = "field";
          pair.append(label, input);
          bar.append(pair);
        }
      };

      const fill = (node: PMNode, state: EditorState) => {
        if (node.type.name === "table") {
          for (const button of bar.querySelectorAll<HTMLButtonElement>("button[data-action]")) {
            const action = TABLE_ACTIONS.find((a) => a.id === button.dataset.action);
            button.disabled = !action?.run(state);
            if (action?.pressed) button.setAttribute("aria-pressed", String(action.pressed(state)));
          }
          return;
        }
        const data = (node.attrs.data as Data | null) ?? {};
        for (const input of bar.querySelectorAll<HTMLInputElement | HTMLSelectElement>("input, select")) {
          if (input === document.activeElement) continue; // never under the cursor of someone typing in it
          const field = FIELDS[node.type.name].find((f) => f.key === input.dataset.key);
          const value = field?.read ? field.read(node) : data[input.dataset.key ?? ""];
          if (input instanceof HTMLInputElement && input.type === "checkbox") input.checked = value === true;
          else input.value = typeof value === "string" ? value : input instanceof HTMLSelectElement ? "info" : "";
          input.removeAttribute("aria-invalid");
        }
      };

      const update = (view: EditorView) => {
        const found = target(view.state);
        // While the bar has the focus, it stays on its block.
        if (!found && bar.contains(document.activeElement)) return;
        if (!found) {
          bar.hidden = true;
          current = undefined;
          return;
        }
        const type = found.node.type.name;
        if (current?.type !== type) build(type);
        current = { type, pos: found.pos };
        bar.hidden = false;
        fill(found.node, view.state);
        const dom = view.nodeDOM(found.pos) as HTMLElement | null;
        if (dom) {
          const box = (bar.offsetParent ?? document.body).getBoundingClientRect();
          const rect = dom.getBoundingClientRect();
          // Above the block, but never above the page's top (a bar wrapped on a narrow screen is taller).
          bar.style.top = `${Math.max(rect.top - box.top - bar.offsetHeight, -(box.top + window.scrollY))}px`;
          bar.style.left = `${Math.max(0, rect.right - box.left - bar.offsetWidth)}px`;
        }
      };
      update(view);
      return { update, destroy: () => bar.remove() };
    },
  });
}
