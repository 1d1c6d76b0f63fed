// Live collaboration's connection (services/app/README.md, "Live collaboration"): one WebSocket to the
// gateway's relay (services/gateway/src/collab.ts), which passes each binary frame to the page's other
// editors. Frames are y-protocols' (y-websocket's framing: a message type, then a sync or awareness
// message); the relay keeps no document, so the editors sync from each other: a joining editor asks with
// sync step 1, and editors already in sync answer with step 2.
//
// Seeding (the double-initialization problem): the page as stored becomes the shared document only when the
// room has none. The relay's hello says how many are already there; alone, the editor seeds at once; with
// others, it takes their document (their step 2) and seeds only if that is still empty, or if nobody in
// sync answered within SYNC_WAIT_MS (two editors that opened together). A seed is built with a client id
// derived from the stored document itself (seedUpdate), so two editors seeding the same stored page make
// the very same Yjs items, which merge into one copy, never two.
//
// Offline: the editor keeps its Y.Doc; on reconnecting it asks for what it missed (step 1) and sends all it
// has (an update of its whole state), which the others merge.
import * as Y from "yjs";
import * as syncProtocol from "y-protocols/sync";
import * as awarenessProtocol from "y-protocols/awareness";
import * as encoding from "lib0/encoding";
import * as decoding from "lib0/decoding";

const MESSAGE_SYNC = 0;
const MESSAGE_AWARENESS = 1;
const SYNC_STEP_1 = 0;
const SYNC_STEP_2 = 1;
/** How long a joining editor waits for someone in sync to answer before it seeds from the stored page. */
export const SYNC_WAIT_MS = 2500;
const PROTOCOL = "docshelf-collab";
/** Close codes after which the editor does not reconnect (the relay's SESSION_ENDED and REFUSED). */
const FINAL_CODES = new Set([4401, 4403]);

export interface Hello {
  type: "hello";
  peers: number;
  user: { name: string; color: number };
  maxMessageBytes: number;
}

/** The relay's word that a connection closed: the awareness client ids it had spoken for. */
interface Left {
  type: "left";
  clients: number[];
}

/** The relay's word that the change request's content moved to `revision` (an edit through the API, the app…). */
interface Changed {
  type: "changed";
  revision: string;
}

export type LiveState = "connecting" | "live" | "offline" | "alone" | "stopped";

export interface LiveOptions {
  url: string;
  csrf: string;
  doc: Y.Doc;
  awareness: awarenessProtocol.Awareness;
  /** Seeds the shared document from the stored page (only ever called while it is empty). */
  seed(): void;
  onState(state: LiveState, detail?: string): void;
  onHello(hello: Hello): void;
  /** The shared document is in sync with the room for the first time (the editor may show it). */
  onSynced(): void;
  /** The change request's content moved to `revision` (its page may have been changed elsewhere). */
  onChanged?(revision: string): void;
}

/** A 32-bit client id of a stored document: the same document, the same seed items in every editor. */
export function seedClientId(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  // Never 0 (Yjs reserves nothing there, but 0 is what an unset id looks like in a bug report).
  return (h >>> 0) || 1;
}

export function isEmpty(doc: Y.Doc): boolean {
  return doc.getXmlFragment("prosemirror").length === 0;
}

export class LiveConnection {
  private ws: WebSocket | undefined;
  /** In sync with the room on the current connection (answers others' step 1 only then). */
  private inSync = false;
  /** Has been in sync with a room at least once: only then does a lost connection reconnect. */
  private everSynced = false;
  private waiting: ReturnType<typeof setTimeout> | undefined;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private backoff = 500;
  private maxBytes = 1024 * 1024;
  private stopped = false;

  constructor(private readonly options: LiveOptions) {
    options.doc.on("update", (update: Uint8Array, origin: unknown) => {
      if (origin === this) return;
      const encoder = encoding.createEncoder();
      encoding.writeVarUint(encoder, MESSAGE_SYNC);
      syncProtocol.writeUpdate(encoder, update);
      this.send(encoder);
    });
    options.awareness.on("update", ({ added, updated, removed }: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) => {
      if (origin === this) return;
      this.sendAwareness([...added, ...updated, ...removed]);
    });
  }

  connect(): void {
    if (this.stopped) return;
    this.options.onState("connecting");
    const ws = new WebSocket(this.options.url, [PROTOCOL, `csrf.${this.options.csrf}`]);
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.onmessage = (event: MessageEvent) => {
      try {
        if (typeof event.data === "string") this.control(JSON.parse(event.data) as Hello | Left | Changed);
        else this.frame(new Uint8Array(event.data as ArrayBuffer));
      } catch (err) {
        // A frame the editor cannot read (another editor's bug): dropped, the next sync repairs it.
        console.error("live editing: a message could not be read", err);
      }
    };
    ws.onclose = (event: CloseEvent) => this.closed(ws, event.code);
  }

  /** In touch with the room: connected and synced with the others (or alone in it). */
  get inRoom(): boolean {
    return this.inSync;
  }

  /** Leaves the room (the page is closing). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    clearTimeout(this.waiting);
    this.ws?.close(1000);
  }

  private closed(ws: WebSocket, code: number): void {
    if (this.ws !== ws) return;
    this.ws = undefined;
    this.inSync = false;
    clearTimeout(this.waiting);
    const awareness = this.options.awareness;
    const others = [...awareness.getStates().keys()].filter((id) => id !== this.options.doc.clientID);
    awarenessProtocol.removeAwarenessStates(awareness, others, this);
    if (this.stopped) return;
    if (!this.everSynced) {
      // Never in a room (refused, or no relay): the editor works alone, saving for itself.
      this.stopped = true;
      this.options.onState("alone");
      return;
    }
    if (FINAL_CODES.has(code)) {
      this.stopped = true;
      this.options.onState("stopped", code === 4401 ? "the session ended" : "no longer allowed to edit");
      return;
    }
    this.options.onState("offline");
    this.retry = setTimeout(() => this.connect(), this.backoff);
    this.backoff = Math.min(this.backoff * 2, 10_000);
  }

  private control(message: Hello | Left | Changed): void {
    const { awareness } = this.options;
    if (message.type === "changed") {
      if (typeof message.revision === "string") this.options.onChanged?.(message.revision);
      return;
    }
    if (message.type === "left") {
      const gone = message.clients.filter((id) => typeof id === "number" && id !== this.options.doc.clientID);
      awarenessProtocol.removeAwarenessStates(awareness, gone, this);
      return;
    }
    if (message.type !== "hello") return;
    const hello = message;
    this.maxBytes = hello.maxMessageBytes;
    this.options.onHello(hello);
    const { doc } = this.options;
    // Ask the others for what this editor lacks, and give them what it has (its offline edits included).
    const ask = encoding.createEncoder();
    encoding.writeVarUint(ask, MESSAGE_SYNC);
    syncProtocol.writeSyncStep1(ask, doc);
    this.send(ask);
    if (!isEmpty(doc)) this.sendState();
    // A new clock, so editors that dropped this one's presence while it was away take it again.
    awareness.setLocalState(awareness.getLocalState());
    if (hello.peers === 0) this.synced();
    else this.waiting = setTimeout(() => this.synced(), SYNC_WAIT_MS);
  }

  private synced(): void {
    clearTimeout(this.waiting);
    if (this.inSync) return;
    if (isEmpty(this.options.doc)) {
      this.options.seed();
    }
    this.inSync = true;
    this.backoff = 500;
    this.options.onState("live");
    if (!this.everSynced) {
      this.everSynced = true;
      this.options.onSynced();
    }
  }

  private frame(bytes: Uint8Array): void {
    const decoder = decoding.createDecoder(bytes);
    const kind = decoding.readVarUint(decoder);
    if (kind === MESSAGE_AWARENESS) {
      awarenessProtocol.applyAwarenessUpdate(this.options.awareness, decoding.readVarUint8Array(decoder), this);
      return;
    }
    if (kind !== MESSAGE_SYNC) return;
    const step = decoding.peekVarUint(decoder);
    // Someone asking: only an editor in sync answers (a joining one's empty answer would look like the room's).
    if (step === SYNC_STEP_1 && !this.inSync) return;
    const reply = encoding.createEncoder();
    encoding.writeVarUint(reply, MESSAGE_SYNC);
    syncProtocol.readSyncMessage(decoder, reply, this.options.doc, this);
    if (encoding.length(reply) > 1) this.send(reply);
    // Someone (re)joined: this editor's presence with a new clock (one they dropped is taken again).
    if (step === SYNC_STEP_1) this.options.awareness.setLocalState(this.options.awareness.getLocalState());
    if (step === SYNC_STEP_2 && !this.inSync) this.synced();
  }

  private sendState(): void {
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE_SYNC);
    syncProtocol.writeUpdate(encoder, Y.encodeStateAsUpdate(this.options.doc));
    this.send(encoder);
  }

  private sendAwareness(clients: number[]): void {
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE_AWARENESS);
    encoding.writeVarUint8Array(encoder, awarenessProtocol.encodeAwarenessUpdate(this.options.awareness, clients));
    this.send(encoder);
  }

  private send(encoder: encoding.Encoder): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    const bytes = encoding.toUint8Array(encoder);
    if (bytes.length > this.maxBytes) {
      // Larger than the relay passes on: the others get it when they next sync with a smaller change.
      this.options.onState("live", "a change too large to send live; it is saved with the page");
      return;
    }
    ws.send(bytes);
  }
}

/** The Yjs update that seeds a shared document with the stored page (see the module's comment). */
export function seedUpdate(storedJson: string, fill: (fragment: Y.XmlFragment) => void): Uint8Array {
  const seed = new Y.Doc();
  seed.clientID = seedClientId(storedJson);
  fill(seed.getXmlFragment("prosemirror"));
  return Y.encodeStateAsUpdate(seed);
}
