// Saving: the page's document goes into the change request when typing pauses (IDLE_MS) and at least
// every MAX_WAIT_MS while it goes on, never per keystroke; one save at a time (the newest document goes
// next); Mod-s, leaving the page and hiding the tab save at once. A failed save is retried. While the saver is
// held (live editing, out of touch with the room), edits wait; leaving the page still saves.

export const IDLE_MS = 1000;
export const MAX_WAIT_MS = 5000;
const RETRY_MS = 5000;

export type SaveState = "saved" | "dirty" | "saving" | "failed";

export interface SaverOptions {
  /** The document to save now (called when a save starts). */
  snapshot(): string;
  /** Posts the document; resolves on success, rejects with a message. */
  post(document: string, keepalive: boolean): Promise<void>;
  onState(state: SaveState, message?: string): void;
  /**
   * Whether saves wait now (live editing, offline: what the others saved meanwhile reaches this editor only when it
   * is back in the room, and a save in between would take it for an edit from elsewhere). Call `changed()` when it
   * ends. A save on leaving the page (keepalive) goes anyway.
   */
  held?(): boolean;
}

export class Saver {
  private idle: ReturnType<typeof setTimeout> | undefined;
  private maxWait: ReturnType<typeof setTimeout> | undefined;
  private inFlight: Promise<void> | undefined;
  private dirty = false;
  private lastSaved: string | undefined;

  constructor(private readonly options: SaverOptions) {}

  /** The document changed. */
  changed(): void {
    this.dirty = true;
    this.options.onState("dirty");
    clearTimeout(this.idle);
    this.idle = setTimeout(() => void this.flush(), IDLE_MS);
    this.maxWait ??= setTimeout(() => void this.flush(), MAX_WAIT_MS);
  }

  /** `document` is what the server holds now (merged from elsewhere, or saved by another editor): no save of it. */
  markSaved(document: string): void {
    this.lastSaved = document;
  }

  get pending(): boolean {
    return this.dirty || this.inFlight !== undefined;
  }

  /**
   * Whether leaving now would lose an edit: a save on its way, or a document that is not the one saved. A change
   * that left the document as saved (live editing's first render of the shared document) is none.
   */
  get unsaved(): boolean {
    return this.inFlight !== undefined || (this.dirty && this.options.snapshot() !== this.lastSaved);
  }

  /** Saves now (after the save in flight, if any). */
  async flush(keepalive = false): Promise<void> {
    clearTimeout(this.idle);
    clearTimeout(this.maxWait);
    this.idle = this.maxWait = undefined;
    if (this.inFlight) {
      await this.inFlight;
      if (!this.dirty) return;
    }
    if (!this.dirty) return;
    if (!keepalive && this.options.held?.()) return;
    const document = this.options.snapshot();
    this.dirty = false;
    if (document === this.lastSaved) {
      this.options.onState("saved");
      return;
    }
    this.options.onState("saving");
    this.inFlight = this.options.post(document, keepalive).then(
      () => {
        this.lastSaved = document;
        this.inFlight = undefined;
        this.options.onState(this.dirty ? "dirty" : "saved");
      },
      (err: unknown) => {
        this.inFlight = undefined;
        this.dirty = true;
        this.options.onState("failed", err instanceof Error ? err.message : String(err));
        this.idle = setTimeout(() => void this.flush(), RETRY_MS);
      },
    );
    await this.inFlight;
  }
}
