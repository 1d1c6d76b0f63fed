// The block editor of a change request's page (`…/changes/{n}/{page}?edit=blocks`): ProseMirror over
// GitBook's document model (schema.ts, convert.ts), with a slash menu, a floating toolbar, Markdown
// shortcuts, undo/redo, moving blocks with Alt+arrows or their drag handles (block-handle.ts), tables edited in place (table.ts),
// block settings beside the block (block-bar.ts: an image's caption and width, a table's rows and columns), pasting HTML and Markdown (paste.ts), and saving
// into the change request (save.ts); live with the page's other editors (collab.ts: Yjs through y-prosemirror,
// presence with y-protocols' awareness), alone when live editing is not available.
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
import * as Y from "yjs";
import { Awareness, removeAwarenessStates } from "y-protocols/awareness";
import { prosemirrorToYXmlFragment, redo as yRedo, undo as yUndo, yCursorPlugin, ySyncPlugin, yUndoPlugin, yXmlFragmentToProseMirrorRootNode } from "y-prosemirror";
import { LiveConnection, seedUpdate, type LiveState } from "./collab";
import { mergeBlocks } from "./merge";
import { blockBar } from "./block-bar";
import { blockHandles } from "./block-handle";
import { codeEnter, moveBlock, toggleTask } from "./blocks";
import { fromEditor, toEditor } from "./convert";
import { Saver, type SaveState } from "./save";
import { schema } from "./schema";
import { slashMenu } from "./slash";
import { nextCell, previousCell, tablePlugins } from "./table";
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

/**
 * The editor that saves asks whether the page was changed elsewhere (the API, the Markdown editor) when the relay
 * says the change request's content moved (`{"type":"changed"}`, from change-requests' `change-requests.content.changed`
 * event), when it opens, reconnects or becomes the one that saves; and, in case a word was lost, this seldom.
 */
const FALLBACK_CHECK_MS = 60_000;
/** How long the editor waits for live editing before it opens alone. */
const LIVE_WAIT_MS = 6000;
/** How many of the page's own saves the shared document remembers (by hash and by revision, in its `saved` map). */
const SAVED_KEPT = 20;

/** A 53-bit hash of a text (cyrb53): names a saved document in the shared `saved` map. */
function textHash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

interface PersonState {
  user?: { name?: unknown; slot?: unknown };
}

/** The colours of editor.css's `.collab-c0` … `.collab-c7`, in awareness as y-prosemirror wants them (#rrggbb). */
const COLOURS = ["#b3261e", "#0b57d0", "#137333", "#8e24aa", "#9a4d00", "#00695c", "#c2185b", "#3949ab"];

function colourClass(slot: unknown): string {
  return `collab-c${typeof slot === "number" && slot >= 0 && slot < COLOURS.length ? Math.floor(slot) : 0}`;
}

/** The shared document the editor binds to when live. */
interface Live {
  doc: Y.Doc;
  fragment: Y.XmlFragment;
  awareness: Awareness;
  connection: LiveConnection;
}

function start(): void {
  const app = document.getElementById("editor-app");
  const mount = document.getElementById("editor");
  const data = document.getElementById("editor-document");
  const status = document.getElementById("save-status");
  if (!app || !mount || !data || !status) return;
  const saveUrl = app.dataset.save ?? "";
  const csrf = app.dataset.csrf ?? "";
  const initialText = data.textContent ?? "{}";
  const initial = JSON.parse(initialText) as JSONDocument;
  const pages = JSON.parse(document.getElementById("editor-pages")?.textContent ?? "[]") as PickerPage[];
  const people = document.getElementById("editor-people");
  const picker = new LinkPicker(app, pages);
  const pageData = initial.data ?? {};

  /** The editor's document as saved: GitBook's JSON (the page's own `data`: a live document has none of its own). */
  const documentOf = (doc: PMNode): JSONDocument => ({ ...fromEditor(doc), data: pageData });
  /** A stored document as the editor would save it, so the two compare as text. */
  const normalized = (doc: JSONDocument): JSONDocument => documentOf(toEditor(doc));
  const blocksOf = (doc: JSONDocument): string[] => doc.nodes.map((node) => JSON.stringify(node));

  let view: EditorView | undefined;
  let live: Live | undefined;
  /** The change request's revision the editor last knew, and the page as it was stored then. */
  let knownRevision = app.dataset.revision ?? "";
  let base = JSON.stringify(normalized(initial));
  /** Saves sent so far (a state check that overlapped one is not trusted), and the revisions this editor's saves made. */
  let saving = 0;
  const ownRevisions = new Set<string>();
  const revisionKey = (revision: string | undefined): string => `revision:${revision ?? ""}`;
  /** A revision a save of this page made: never brought back in as an edit from elsewhere (live: by every editor of the page). */
  const rememberRevision = (revision: string) => {
    ownRevisions.add(revision);
    if (ownRevisions.size > SAVED_KEPT) ownRevisions.delete(ownRevisions.values().next().value as string);
    const saved = live?.doc.getMap<number>("saved");
    if (!saved) return;
    saved.set(revisionKey(revision), Date.now());
    if (saved.size > SAVED_KEPT * 2) {
      const oldest = [...saved.entries()].sort((a, b) => a[1] - b[1]).slice(0, saved.size - SAVED_KEPT * 2);
      for (const [key] of oldest) saved.delete(key);
    }
  };

  const say = (text: string, state: string) => {
    status.textContent = text;
    status.dataset.state = state;
  };
  /**
   * In touch with the room (or not live): saves and checks wait while a live editor is offline or has not synced
   * again, because what the others saved meanwhile is in the shared document only once it has; a save or a check
   * made before would take their edit for one made elsewhere and bring it in again, on top of the same edit
   * arriving through Yjs (a column added twice, a row lost).
   */
  const inRoom = (): boolean => !live || live.connection.inRoom;
  const OFFLINE = "Offline: your edits are kept and merge when the connection returns";
  /** The one editor of the page that saves: the one with the smallest client id among those present. */
  const saves = (): boolean => {
    if (!live) return true;
    const own = live.doc.clientID;
    for (const id of live.awareness.getStates().keys()) if (id < own) return false;
    return true;
  };

  /**
   * Brings the page as stored now into the editor (an edit made elsewhere): the blocks it changed from what
   * the editor last knew replace the same blocks here (merge.ts); live, every editor sees it through Yjs.
   */
  const bringIn = (stored: JSONDocument, revision?: string): boolean => {
    if (!view) return false;
    const theirs = normalized(stored);
    const theirsText = JSON.stringify(theirs);
    if (theirsText === base) return false;
    // What an editor of this page saved (two may, for a moment, while they learn of each other) is already in
    // the shared document: nothing to bring in, only the new base. Known by the revision its save made (whatever
    // the stored form of the document looks like), or by the hash of the document as sent.
    if ((revision !== undefined && ownRevisions.has(revision)) || live?.doc.getMap<number>("saved").has(revisionKey(revision)) || live?.doc.getMap<number>("saved").has(textHash(theirsText))) {
      base = theirsText;
      return false;
    }
    const mine = documentOf(view.state.doc);
    const splice = mergeBlocks(blocksOf(JSON.parse(base) as JSONDocument), blocksOf(theirs), blocksOf(mine));
    base = theirsText;
    if (!splice) return false;
    const doc = view.state.doc;
    const theirsDoc = toEditor(theirs);
    const tr = view.state.tr.setMeta("addToHistory", false);
    const aligned = mine.nodes.length === doc.childCount && theirs.nodes.length === theirsDoc.childCount;
    const whole = !aligned || (splice.from === 0 && splice.to === mine.nodes.length && splice.start === 0 && splice.end === theirs.nodes.length);
    try {
      if (whole) tr.replaceWith(0, doc.content.size, theirsDoc.content);
      else {
        const posOf = (node: PMNode, index: number) => {
          let pos = 0;
          for (let i = 0; i < index; i++) pos += node.child(i).nodeSize;
          return pos;
        };
        const inserted: PMNode[] = [];
        for (let i = splice.start; i < splice.end; i++) inserted.push(theirsDoc.child(i));
        tr.replaceWith(posOf(doc, splice.from), posOf(doc, splice.to), inserted);
      }
    } catch {
      tr.replaceWith(0, tr.doc.content.size, theirsDoc.content);
    }
    view.dispatch(tr);
    return true;
  };

  const postOnce = async (document: string, keepalive: boolean) => {
    if (live) {
      // Said before it is stored, so an editor that finds it stored knows it for the room's own.
      const saved = live.doc.getMap<number>("saved");
      saved.set(textHash(document), Date.now());
      if (saved.size > SAVED_KEPT * 2) {
        const oldest = [...saved.entries()].sort((a, b) => a[1] - b[1]).slice(0, saved.size - SAVED_KEPT * 2);
        for (const [key] of oldest) saved.delete(key);
      }
    }
    const body = new URLSearchParams({ _csrf: csrf, intent: "save-document", document });
    if (live && knownRevision) body.set("revision", knownRevision);
    const res = await fetch(saveUrl, { method: "POST", body, credentials: "same-origin", keepalive, headers: { Accept: "application/json" } });
    const answer = (await res.json().catch(() => ({}))) as { error?: string; revision?: string; document?: JSONDocument | null };
    return { res, answer };
  };

  /** A check is owed: the relay said the content moved while a save was on its way (or the tab was hidden). */
  let checkOwed = false;
  const saver = new Saver({
    snapshot: () => (view ? JSON.stringify(documentOf(view.state.doc)) : base),
    async post(document, keepalive) {
      for (let attempt = 0; attempt < 4; attempt++) {
        saving += 1;
        const { res, answer } = await postOnce(document, keepalive);
        if (res.ok) {
          if (answer.revision) {
            knownRevision = answer.revision;
            rememberRevision(answer.revision);
          }
          base = document;
          return;
        }
        // Live: the change request moved since the editor last knew it; the page as stored is brought in
        // first (an edit made elsewhere is merged, never overwritten), then the save goes again.
        if (res.status === 409 && answer.revision) {
          // Out of the room since the save went: the newer revision may be the others' edit, on its way through Yjs.
          if (!inRoom()) throw new Error("offline");
          knownRevision = answer.revision;
          if (answer.document) bringIn(answer.document, answer.revision);
          document = view ? JSON.stringify(documentOf(view.state.doc)) : document;
          continue;
        }
        throw new Error(answer.error ?? `status ${res.status}`);
      }
      throw new Error("the page kept changing elsewhere");
    },
    held: () => !inRoom(),
    onState(state, message) {
      if (state === "saved" && checkOwed) void check();
      if (!saves()) return;
      if (!inRoom()) return say(OFFLINE, "offline");
      say(statusText(state, message), state);
    },
  });

  /** Asks whether the page was changed elsewhere; brings it in (the editor that saves, live, when idle). */
  const check = async () => {
    if (!live || !view || !saves()) return;
    if (saver.pending || document.visibilityState !== "visible" || !inRoom()) {
      checkOwed = true;
      return;
    }
    checkOwed = false;
    const url = `${saveUrl}?edit=state&revision=${encodeURIComponent(knownRevision)}`;
    const savesBefore = saving;
    const res = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } }).catch(() => undefined);
    if (!res?.ok || saver.pending || !inRoom()) {
      checkOwed = true;
      return;
    }
    const answer = (await res.json().catch(() => ({}))) as { revision?: string | null; document?: JSONDocument | null };
    // A save went out while the question was on its way: the answer may describe the page before that save (an older
    // revision than the one the save made, or the save's own document): the next check asks again.
    if (saving !== savesBefore || saver.pending || !inRoom()) {
      checkOwed = true;
      return;
    }
    if (answer.revision) knownRevision = answer.revision;
    if (!answer.document) return;
    if (bringIn(answer.document, answer.revision ?? undefined)) {
      const now = JSON.stringify(documentOf(view.state.doc));
      if (now === base) saver.markSaved(now);
      else saver.changed();
      say("Changed elsewhere: brought into the editor", "merged");
    }
  };

  /** The relay's word that the change request moved to `revision`: asked at once unless this editor's own save made it. */
  const changedElsewhere = (revision: string) => {
    if (revision === knownRevision || ownRevisions.has(revision) || live?.doc.getMap<number>("saved").has(revisionKey(revision))) return;
    void check();
  };

  const showPeople = () => {
    if (!people || !live) return;
    const items: HTMLLIElement[] = [];
    for (const [id, state] of live.awareness.getStates()) {
      const user = (state as PersonState).user;
      if (!user || typeof user.name !== "string") continue;
      const item = document.createElement("li");
      item.className = colourClass(user.slot);
      item.textContent = id === live.doc.clientID ? `${user.name} (you)` : user.name;
      if (id === live.doc.clientID) item.dataset.self = "true";
      items.push(item);
    }
    people.replaceChildren(...items);
  };

  const saveNow: Command = () => {
    if (saves()) void saver.flush();
    return true;
  };
  const mark = (name: string): Command => toggleMark(schema.marks[name]);

  /**
   * Live redo (y-prosemirror's) with the cursor at the end of what came back: y-prosemirror puts back the selection
   * it kept from before the undo, whose relative positions pointed into the text the undo deleted; the redo makes
   * that text anew, so those positions resolve to the page's start and the next keystroke landed there.
   */
  const liveRedo: Command = (state, dispatch, editorView) => {
    if (!dispatch || !editorView) return yRedo(state);
    const before = editorView.state.doc;
    if (!yRedo(state)) return false;
    const after = editorView.state.doc;
    const end = after.content.findDiffEnd(before.content);
    if (end) {
      const at = Math.max(0, Math.min(end.a, after.content.size));
      editorView.dispatch(editorView.state.tr.setSelection(TextSelection.near(after.resolve(at), -1)).setMeta("addToHistory", false));
    }
    return true;
  };

  const open = (shared: Live | undefined) => {
    if (view) return;
    live = shared;
    const undoing: Plugin[] = shared
      ? [
          ySyncPlugin(shared.fragment),
          yCursorPlugin(shared.awareness, {
            cursorBuilder: (user: { name?: unknown; slot?: unknown }) => {
              const cursor = document.createElement("span");
              cursor.className = `collab-cursor ${colourClass(user.slot)}`;
              const label = document.createElement("span");
              label.className = "collab-name";
              label.textContent = typeof user.name === "string" ? user.name : "Someone";
              cursor.append(label);
              return cursor;
            },
            selectionBuilder: (user: { slot?: unknown }) => ({ class: `collab-selection ${colourClass(user.slot)}` }),
          }),
          yUndoPlugin(),
        ]
      : [history()];
    const state = EditorState.create({
      doc: shared ? yXmlFragmentToProseMirrorRootNode(shared.fragment, schema) : toEditor(initial),
      plugins: [
        slashMenu(ask),
        rules,
        keymap({
          "Mod-z": shared ? yUndo : undo,
          "Mod-y": shared ? liveRedo : redo,
          "Shift-Mod-z": shared ? liveRedo : redo,
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
          Tab: chainCommands(nextCell, sinkListItem(n.list_item)),
          "Shift-Tab": chainCommands(previousCell, liftListItem(n.list_item)),
        }),
        keymap(baseKeymap),
        ...tablePlugins(),
        ...undoing,
        dropCursor(),
        gapCursor(),
        floatingToolbar(picker),
        blockBar(),
        blockHandles(),
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

    const created: EditorView = new EditorView(mount, {
      state,
      attributes: { role: "textbox", "aria-multiline": "true", "aria-label": "Page content", spellcheck: "true", class: "editor-content" },
      // `this`, not `created`: live, y-prosemirror dispatches its first render while the view is being made.
      dispatchTransaction(this: EditorView, tr) {
        this.updateState(this.state.apply(tr));
        // Live, the editor that saves saves everyone's edits (theirs arrive as transactions too).
        if (tr.docChanged && saves()) saver.changed();
      },
    });
    view = created;
    // What the editor opened with is what is stored, or what the editor that saves will save.
    saver.markSaved(JSON.stringify(documentOf(created.state.doc)));
    say(statusText("saved"), "saved");
    app.dataset.ready = "true";
    app.dataset.live = shared ? "true" : "false";
    created.focus();
    if (shared) {
      void check();
      setInterval(() => void check(), FALLBACK_CHECK_MS);
    }
  };

  const liveUrl = app.dataset.collab;
  if (!liveUrl || typeof WebSocket === "undefined") open(undefined);
  else {
    const doc = new Y.Doc();
    const fragment = doc.getXmlFragment("prosemirror");
    const awareness = new Awareness(doc);
    let lastSaver = true;
    awareness.on("change", () => {
      showPeople();
      const now = saves();
      if (now && !lastSaver) {
        saver.changed();
        void check();
      }
      if (!now) say(`Live: saved by the editor of ${saverName() ?? "someone else"}`, "peer");
      else if (!lastSaver) say(statusText("saved"), "saved");
      lastSaver = now;
    });
    const saverName = (): string | undefined => {
      let min = Infinity;
      let name: string | undefined;
      for (const [id, state] of awareness.getStates()) {
        const user = (state as PersonState).user;
        if (id < min && typeof user?.name === "string") {
          min = id;
          name = user.name;
        }
      }
      return name;
    };
    const storedPage = toEditor(initial);
    const connection = new LiveConnection({
      url: `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}${liveUrl}`,
      csrf,
      doc,
      awareness,
      seed: () => Y.applyUpdate(doc, seedUpdate(initialText, (f) => prosemirrorToYXmlFragment(storedPage, f))),
      onState(state: LiveState, detail?: string) {
        app.dataset.liveState = state;
        if (state === "alone") open(undefined);
        else if (state === "offline") say(OFFLINE, "offline");
        else if (state === "stopped") say(`Live editing stopped (${detail ?? "refused"}); reload the page`, "stopped");
        else if (state === "live" && detail) say(`Live (${detail})`, "live");
        // Back after a time offline: the edits made meanwhile are saved now (the others' are in), and the words
        // sent meanwhile were missed.
        if (state === "live" && !detail && view && saver.pending && saves()) saver.changed();
        if (state === "live" && !detail) void check();
      },
      onChanged: changedElsewhere,
      onHello(hello) {
        const slot = hello.user.color % COLOURS.length;
        awareness.setLocalStateField("user", { name: hello.user.name, color: COLOURS[slot], slot });
      },
      onSynced: () => open({ doc, fragment, awareness, connection }),
    });
    connection.connect();
    setTimeout(() => {
      if (view) return;
      connection.stop();
      open(undefined);
    }, LIVE_WAIT_MS);
    window.addEventListener("pagehide", () => {
      removeAwarenessStates(awareness, [doc.clientID], "page closed");
      connection.stop();
    });
  }

  // Leaving through the page's own links (the Markdown source, Done): the edits are saved first, then
  // the browser goes, so the Markdown editor opens on what was just typed (and no "leave?" prompt).
  for (const link of document.querySelectorAll<HTMLAnchorElement>(".editor-bar a[href]")) {
    link.addEventListener("click", (event) => {
      if (!saver.unsaved || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      void saver.flush().then(() => {
        if (!saver.pending) window.location.assign(link.href);
      });
    });
  }
  window.addEventListener("beforeunload", (event) => {
    if (!saver.unsaved) return;
    void saver.flush(true);
    event.preventDefault();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && checkOwed) void check();
    // Offline, a hidden tab keeps its edits for the room (leaving the page still saves them).
    if (document.visibilityState === "hidden" && saver.pending && inRoom()) void saver.flush(true);
  });
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
