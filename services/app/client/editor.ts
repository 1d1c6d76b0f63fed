// The block editor of a change request's page (`…/changes/{n}/{page}?edit=blocks`): ProseMirror over
// GitBook's document model (schema.ts, convert.ts), with a slash menu, a floating toolbar, Markdown
// shortcuts, undo/redo, moving blocks with Alt+arrows, pasting HTML and Markdown (paste.ts), and saving
// into the change request (save.ts).
import "./editor.css";
import { baseKeymap, chainCommands, toggleMark } from "prosemirror-commands";
import { dropCursor } from "prosemirror-dropcursor";
import { gapCursor } from "prosemirror-gapcursor";
import { history, redo, undo } from "prosemirror-history";
import { InputRule, inputRules, textblockTypeInputRule, wrappingInputRule } from "prosemirror-inputrules";
import { keymap } from "prosemirror-keymap";
import type { Node as PMNode } from "prosemirror-model";
import { liftListItem, sinkListItem, splitListItem } from "prosemirror-schema-list";
import { EditorState, Plugin, TextSelection, type Command } from "prosemirror-state";
import { EditorView } from "prosemirror-view";
import type { JSONDocument } from "@docshelf/document";
import { blockBar } from "./block-bar";
import { codeEnter, moveBlock, toggleTask } from "./blocks";
import { fromEditor, toEditor } from "./convert";
import { Saver, type SaveState } from "./save";
import { schema } from "./schema";
import { slashMenu } from "./slash";
import { LinkPicker, type PickerPage } from "./link-picker";
import { pasting } from "./paste";
import { floatingToolbar, toggleLink } from "./toolbar";
import { imageUploads } from "./upload";

const n = schema.nodes;
const ask = (question: string): string | null => window.prompt(question);

/** Deletes the typed marker, then puts the block in the (now empty) paragraph's place. */
function placeAfterDelete(state: EditorState, start: number, end: number, node: PMNode) {
  const tr = state.tr.delete(start, end);
  const $pos = tr.doc.resolve(tr.mapping.map(start));
  const from = $pos.before();
  const paragraph = $pos.parent;
  if (paragraph.content.size === 0) {
    tr.replaceWith(from, from + paragraph.nodeSize, node);
  } else {
    tr.insert(from, node);
  }
  let inside = from + 1;
  tr.doc.nodeAt(from)?.descendants((child, pos) => {
    if (inside !== from + 1) return false;
    if (child.isTextblock) {
      inside = from + 1 + pos + 1;
      return false;
    }
    return true;
  });
  return tr.setSelection(TextSelection.near(tr.doc.resolve(Math.min(inside, tr.doc.content.size))));
}

const codeBlock = (syntax: string) => n.code_block.create({ data: syntax ? { syntax } : {} }, n.code_line.create({ data: {} }));

const rules = inputRules({
  rules: [
    textblockTypeInputRule(/^#\s$/, n.heading_1, { data: {} }),
    textblockTypeInputRule(/^##\s$/, n.heading_2, { data: {} }),
    textblockTypeInputRule(/^###\s$/, n.heading_3, { data: {} }),
    wrappingInputRule(/^\s*([-+*])\s$/, n.list_unordered),
    wrappingInputRule(/^(\d+)\.\s$/, n.list_ordered, (match) => ({ data: Number(match[1]) === 1 ? {} : { start: Number(match[1]) } })),
    wrappingInputRule(/^\s*>\s$/, n.blockquote),
    new InputRule(/^\[( |x)\]\s$/, (state, match, start, end) =>
      placeAfterDelete(state, start, end, n.list_tasks.create(null, n.list_item.create({ data: { checked: match[1] === "x" } }, n.paragraph.create()))),
    ),
    new InputRule(/^```([\w+#-]*)\s$/, (state, match, start, end) => placeAfterDelete(state, start, end, codeBlock(match[1]))),
    new InputRule(/^(?:---|\*\*\*)\s$/, (state, _match, start, end) => placeAfterDelete(state, start, end, n.divider.create({ data: {}, isVoid: true }))),
  ],
});

/** Enter after a paragraph of just ```lang: a code block (the shortcut without the space). */
const fenceEnter: Command = (state, dispatch) => {
  const { $from, empty } = state.selection;
  if (!empty || $from.parent.type !== n.paragraph) return false;
  const match = /^```([\w+#-]*)$/.exec($from.parent.textContent);
  if (!match || $from.parentOffset !== $from.parent.content.size) return false;
  if (dispatch) dispatch(placeAfterDelete(state, $from.start(), $from.pos, codeBlock(match[1])).scrollIntoView());
  return true;
};

function statusText(state: SaveState, message?: string): string {
  switch (state) {
    case "saved":
      return "All changes saved";
    case "dirty":
      return "Unsaved changes";
    case "saving":
      return "Saving…";
    case "failed":
      return `Not saved (${message ?? "error"}); trying again`;
  }
}

function start(): void {
  const app = document.getElementById("editor-app");
  const mount = document.getElementById("editor");
  const data = document.getElementById("editor-document");
  const status = document.getElementById("save-status");
  if (!app || !mount || !data || !status) return;
  const saveUrl = app.dataset.save ?? "";
  const csrf = app.dataset.csrf ?? "";
  const initial = JSON.parse(data.textContent ?? "{}") as JSONDocument;
  const pages = JSON.parse(document.getElementById("editor-pages")?.textContent ?? "[]") as PickerPage[];
  const picker = new LinkPicker(app, pages);

  const saver = new Saver({
    snapshot: () => JSON.stringify(fromEditor(view.state.doc)),
    async post(document, keepalive) {
      const body = new URLSearchParams({ _csrf: csrf, intent: "save-document", document });
      const res = await fetch(saveUrl, { method: "POST", body, credentials: "same-origin", keepalive, headers: { Accept: "application/json" } });
      if (res.ok) return;
      const answer = (await res.json().catch(() => ({}))) as { error?: string };
      throw new Error(answer.error ?? `status ${res.status}`);
    },
    onState(state, message) {
      status.textContent = statusText(state, message);
      status.dataset.state = state;
    },
  });

  const saveNow: Command = () => {
    void saver.flush();
    return true;
  };
  const mark = (name: string): Command => toggleMark(schema.marks[name]);

  const state = EditorState.create({
    doc: toEditor(initial),
    plugins: [
      slashMenu(ask),
      rules,
      keymap({
        "Mod-z": undo,
        "Mod-y": redo,
        "Shift-Mod-z": redo,
        "Mod-b": mark("bold"),
        "Mod-i": mark("italic"),
        "Mod-e": mark("code"),
        "Shift-Mod-x": mark("strikethrough"),
        "Mod-k": toggleLink(picker),
        "Mod-s": saveNow,
        "Mod-Enter": toggleTask,
        "Alt-ArrowUp": moveBlock(-1),
        "Alt-ArrowDown": moveBlock(1),
        Enter: chainCommands(codeEnter, fenceEnter, splitListItem(n.list_item)),
        Tab: sinkListItem(n.list_item),
        "Shift-Tab": liftListItem(n.list_item),
      }),
      keymap(baseKeymap),
      history(),
      dropCursor(),
      gapCursor(),
      floatingToolbar(picker),
      blockBar(),
      imageUploads({ url: app.dataset.files ?? "", csrf, say: (message) => (status.textContent = message) }),
      pasting(),
      new Plugin({
        props: {
          // A task's box (the item's own padding, left of its text) ticks it.
          handleClickOn(view, _pos, node, nodePos, event) {
            if (node.type !== n.list_item || event.target !== view.nodeDOM(nodePos)) return false;
            const $pos = view.state.doc.resolve(nodePos);
            if ($pos.parent.type !== n.list_tasks) return false;
            const data = { ...((node.attrs.data as Record<string, unknown> | null) ?? {}), checked: !(node.attrs.data as { checked?: boolean } | null)?.checked };
            view.dispatch(view.state.tr.setNodeMarkup(nodePos, undefined, { ...node.attrs, data }));
            return true;
          },
        },
      }),
    ],
  });

  const view: EditorView = new EditorView(mount, {
    state,
    attributes: { role: "textbox", "aria-multiline": "true", "aria-label": "Page content", spellcheck: "true", class: "editor-content" },
    dispatchTransaction(tr) {
      view.updateState(view.state.apply(tr));
      if (tr.docChanged) saver.changed();
    },
  });
  status.textContent = statusText("saved");
  status.dataset.state = "saved";
  app.dataset.ready = "true";

  // Leaving through the page's own links (the Markdown source, Done): the edits are saved first, then
  // the browser goes, so the Markdown editor opens on what was just typed (and no "leave?" prompt).
  for (const link of document.querySelectorAll<HTMLAnchorElement>(".editor-bar a[href]")) {
    link.addEventListener("click", (event) => {
      if (!saver.pending || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      void saver.flush().then(() => {
        if (!saver.pending) window.location.assign(link.href);
      });
    });
  }
  window.addEventListener("beforeunload", (event) => {
    if (!saver.pending) return;
    void saver.flush(true);
    event.preventDefault();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") void saver.flush(true);
  });
  view.focus();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
