import { IDLE_MS, MAX_WAIT_MS, Saver, type SaveState } from "./save";

/** A saver over a fake server: what it posted, and the states it went through. */
function harness(fail = () => false, held?: () => boolean) {
  let doc = "v0";
  const posted: string[] = [];
  const states: SaveState[] = [];
  const saver = new Saver({
    snapshot: () => doc,
    post: async (d) => {
      if (fail()) throw new Error("offline");
      posted.push(d);
    },
    onState: (s) => states.push(s),
    held,
  });
  return { saver, posted, states, edit: (d: string) => ((doc = d), saver.changed()) };
}

describe("saving cadence", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("one save when typing pauses, not one per keystroke", async () => {
    const h = harness();
    for (let i = 1; i <= 10; i++) {
      h.edit(`v${i}`);
      await jest.advanceTimersByTimeAsync(100);
    }
    expect(h.posted).toEqual([]);
    await jest.advanceTimersByTimeAsync(IDLE_MS);
    expect(h.posted).toEqual(["v10"]);
    expect(h.states.at(-1)).toBe("saved");
  });

  test("typing without a pause still saves every MAX_WAIT_MS", async () => {
    const h = harness();
    const keystrokes = Math.ceil((MAX_WAIT_MS * 2.5) / 200);
    for (let i = 1; i <= keystrokes; i++) {
      h.edit(`v${i}`);
      await jest.advanceTimersByTimeAsync(200);
    }
    expect(h.posted.length).toBe(2);
    expect(h.posted.length).toBeLessThan(keystrokes / 10);
  });

  test("flush saves at once; the same document is not posted twice", async () => {
    const h = harness();
    h.edit("a");
    await h.saver.flush();
    expect(h.posted).toEqual(["a"]);
    h.edit("a");
    await h.saver.flush();
    expect(h.posted).toEqual(["a"]);
    expect(h.saver.pending).toBe(false);
  });

  test("a change that leaves the document as saved leaves nothing unsaved (no question on leaving); another does until it is saved", async () => {
    const h = harness();
    h.saver.markSaved("v0");
    h.edit("v0");
    expect(h.saver.pending).toBe(true);
    expect(h.saver.unsaved).toBe(false);
    h.edit("v1");
    expect(h.saver.unsaved).toBe(true);
    await h.saver.flush();
    expect(h.saver.unsaved).toBe(false);
  });

  test("a failed save says so and is retried with the newest document", async () => {
    let offline = true;
    const h = harness(() => offline);
    h.edit("a");
    await h.saver.flush();
    expect(h.states.at(-1)).toBe("failed");
    expect(h.saver.pending).toBe(true);
    h.edit("b");
    offline = false;
    await jest.advanceTimersByTimeAsync(MAX_WAIT_MS + IDLE_MS);
    expect(h.posted).toEqual(["b"]);
    expect(h.states.at(-1)).toBe("saved");
  });

  test("held (live, offline): edits wait, however long, and go when the hold ends; leaving the page saves anyway", async () => {
    let offline = true;
    const h = harness(undefined, () => offline);
    h.edit("a");
    h.edit("b");
    await jest.advanceTimersByTimeAsync(MAX_WAIT_MS * 4);
    await h.saver.flush();
    expect(h.posted).toEqual([]);
    expect(h.saver.pending).toBe(true);
    expect(h.saver.unsaved).toBe(true);
    offline = false;
    h.saver.changed();
    await jest.advanceTimersByTimeAsync(IDLE_MS);
    expect(h.posted).toEqual(["b"]);
    offline = true;
    h.edit("c");
    await h.saver.flush(true);
    expect(h.posted).toEqual(["b", "c"]);
  });
});
