// The block bar: the settings of the block the cursor is in, beside it: a code block's language, title
// and line numbers, a hint's style, a tab's title. Reached with Tab from the editor (it follows it in
// the page), Escape goes back to the text. Each change sets the block's GitBook `data`.
import type { Node as PMNode } from "prosemirror-model";
import { Plugin } from "prosemirror-state";
import type { EditorView } from "prosemirror-view";

type Data = Record<string, unknown>;

interface Field {
  key: string;
  label: string;
  kind: "text" | "checkbox" | "select";
  options?: string[];
  maxLength?: number;
}

const FIELDS: Record<string, Field[]> = {
  code_block: [
    { key: "syntax", label: "Language", kind: "text", maxLength: 40 },
    { key: "title", label: "Title", kind: "text", maxLength: 200 },
    { key: "lineNumbers", label: "Line numbers", kind: "checkbox" },
  ],
  hint: [{ key: "style", label: "Hint style", kind: "select", options: ["info", "success", "warning", "danger"] }],
  tabs_item: [{ key: "title", label: "Tab title", kind: "text", maxLength: 200 }],
};

/** The innermost block around the selection that has settings, and where it starts. */
function target(view: EditorView): { node: PMNode; pos: number } | undefined {
  const { $from } = view.state.selection;
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

      const set = (key: string, value: unknown) => {
        if (!current) return;
        const node = view.state.doc.nodeAt(current.pos);
        if (!node || node.type.name !== current.type) return;
        const data: Data = { ...((node.attrs.data as Data | null) ?? {}) };
        if (value === "" || value === false || value === undefined) delete data[key];
        else data[key] = value;
        view.dispatch(view.state.tr.setNodeMarkup(current.pos, undefined, { ...node.attrs, data }));
      };

      const build = (type: string) => {
        bar.replaceChildren();
        bar.setAttribute("aria-label", type === "code_block" ? "Code block settings" : type === "hint" ? "Hint settings" : "Tab settings");
        for (const field of FIELDS[type]) {
          const label = document.createElement("label");
          const id = `block-${type}-${field.key}`;
          label.htmlFor = id;
          label.textContent = field.label;
          let input: HTMLInputElement | HTMLSelectElement;
          if (field.kind === "select") {
            const select = document.createElement("select");
            for (const option of field.options ?? []) select.append(new Option(option, option));
            select.addEventListener("change", () => set(field.key, select.value));
            input = select;
          } else {
            const box = document.createElement("input");
            box.type = field.kind;
            if (field.maxLength) box.maxLength = field.maxLength;
            box.addEventListener(field.kind === "checkbox" ? "change" : "input", () => set(field.key, field.kind === "checkbox" ? box.checked : box.value.trim()));
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
          bar.append(label, input);
        }
      };

      const fill = (node: PMNode) => {
        const data = (node.attrs.data as Data | null) ?? {};
        for (const input of bar.querySelectorAll<HTMLInputElement | HTMLSelectElement>("input, select")) {
          if (input === document.activeElement) continue; // never under the cursor of someone typing in it
          const value = data[input.dataset.key ?? ""];
          if (input instanceof HTMLInputElement && input.type === "checkbox") input.checked = value === true;
          else input.value = typeof value === "string" ? value : input instanceof HTMLSelectElement ? "info" : "";
        }
      };

      const update = (view: EditorView) => {
        const found = target(view);
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
        fill(found.node);
        const dom = view.nodeDOM(found.pos) as HTMLElement | null;
        if (dom) {
          const box = (bar.offsetParent ?? document.body).getBoundingClientRect();
          const rect = dom.getBoundingClientRect();
          bar.style.top = `${rect.top - box.top - bar.offsetHeight}px`;
          bar.style.left = `${Math.max(0, rect.right - box.left - bar.offsetWidth)}px`;
        }
      };
      update(view);
      return { update, destroy: () => bar.remove() };
    },
  });
}
