// The app's polish, through the HTTP gateway in both process modes: a merge is confirmed (a post without the
// form's confirmation box is a 400 naming it and merges nothing; with it, it merges) and set apart from the
// reviews; a new change request is a draft (or opened at once), a draft is marked ready for review (and back),
// and the lists show each one's status. A reader can do neither (403), another organization's user finds
// nothing (404), signed out is sent to sign in. Times are <time> elements with the exact UTC time in a title.
import type { RunningSystem } from "@docshelf/testkit";
import { Browser, appWorld, csrfOf, signedIn, type AppWorld } from "./app-fixtures";
import { MODES, start } from "./modes";

/** A relative time of the last minutes, in a <time> with its ISO datetime and the exact UTC time as its title. */
const RECENT_TIME = /<time datetime="\d{4}-\d\d-\d\dT[^"]+" title="\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC">(just now|\d+ minutes? ago)<\/time>/;

describe.each(MODES)("the app's polish over %s", (mode) => {
  let sys: RunningSystem;
  let w: AppWorld;
  let alice: Browser;
  let readerBrowser: Browser;
  let bob: Browser;
  const space = () => `/s/${w.spaceId}`;
  const crApi = (id: string) => `/v1/spaces/${w.spaceId}/change-requests/${id}`;

  /** A change request made through the app's form; its number, id and app path. */
  const createInApp = async (subject: string, status?: string): Promise<{ number: number; id: string; path: string }> => {
    const fields: Record<string, string> = { subject };
    if (status !== undefined) fields.status = status;
    const res = await alice.submit(space(), `${space()}/~/changes`, fields);
    expect(res.status).toBe(303);
    const number = Number(/\/~\/changes\/(\d+)$/.exec(res.location ?? "")?.[1]);
    expect(number).toBeGreaterThan(0);
    const api = await w.alice.api.get(crApi(String(number)));
    expect(api.status).toBe(200);
    return { number, id: api.body.id, path: `${space()}/~/changes/${number}` };
  };
  const statusOf = async (id: string): Promise<string> => (await w.alice.api.get(crApi(id))).body.status;
  /** Gives a change request a change, so that its merge changes main. */
  const edit = async (id: string, title: string) => {
    const res = await w.alice.api.post(`${crApi(id)}/content`, { changes: [{ operation: "insert_page", title, document: { markdown: `${title}.\n` } }] });
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    sys = await start(mode);
    w = await appWorld(sys);
    ({ alice, readerBrowser, bob } = await signedIn(sys, w));
  }, 120_000);

  afterAll(async () => {
    await sys?.stop();
  });

  describe("merge, confirmed", () => {
    test("the change request page sets the merge apart: its own section, its own style, a required confirmation box", async () => {
      const cr = await createInApp("Set apart");
      const page = await alice.get(cr.path);
      expect(page.status).toBe(200);
      const merge = /<section id="merge" class="merge">([\s\S]*?)<\/section>/.exec(page.text)?.[1] ?? "";
      expect(merge).toContain('<input type="hidden" name="intent" value="merge">');
      expect(merge).toMatch(/<input type="checkbox" id="merge-confirm" name="confirm" value="yes" required>/);
      expect(merge).toContain('<button type="submit" class="merge">Merge</button>');
      // Approve is in the reviews, not in the merge's form, and does not look like the merge.
      expect(merge).not.toContain("approve");
      const reviews = /<section id="reviews">([\s\S]*?)<\/section>/.exec(page.text)?.[1] ?? "";
      expect(reviews).toContain('name="intent" value="approve" class="secondary">Approve</button>');
      expect(reviews).not.toContain('value="merge"');
      // No inline script or handler anywhere on the page.
      expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)|<[^>]*\son[a-z]+=/i);
    });

    test("a merge post without the confirmation is a 400 naming it and merges nothing; with it, it merges", async () => {
      const cr = await createInApp("Confirm me", "open");
      await edit(cr.id, "Confirmed page");
      for (const fields of [{ intent: "merge" }, { intent: "merge", confirm: "" }, { intent: "merge", confirm: "no" }] as Array<Record<string, string>>) {
        const refused = await alice.submit(cr.path, cr.path, fields);
        expect(refused.status).toBe(400);
        expect(refused.text).toContain("confirm");
        expect(refused.text).toContain("Not merged");
        expect(await statusOf(cr.id)).toBe("open");
      }
      expect((await alice.get(space())).text).not.toContain("Confirmed page");
      const merged = await alice.submit(cr.path, cr.path, { intent: "merge", confirm: "yes" });
      expect(merged.status).toBe(303);
      expect(merged.location).toBe(cr.path);
      expect(await statusOf(cr.id)).toBe("merged");
      expect((await alice.get(space())).text).toContain(">Confirmed page</a>");
      // Merged: no merge section, no ready button.
      const after = await alice.get(cr.path);
      expect(after.text).not.toContain('id="merge"');
      expect(after.text).not.toContain('value="ready"');
      expect(after.text).toContain('<span class="status status-merged">merged</span>');
    });

    test("a draft merges too once confirmed (the API's rule: draft and open are both in progress)", async () => {
      const cr = await createInApp("Draft merge");
      await edit(cr.id, "Draft merged page");
      expect((await alice.submit(cr.path, cr.path, { intent: "merge" })).status).toBe(400);
      expect(await statusOf(cr.id)).toBe("draft");
      expect((await alice.submit(cr.path, cr.path, { intent: "merge", confirm: "yes" })).status).toBe(303);
      expect(await statusOf(cr.id)).toBe("merged");
    });
  });

  describe("draft, then ready for review", () => {
    test("a new change request is a draft by default: the page says so and offers “Ready for review”, which opens it", async () => {
      const form = await alice.get(space());
      expect(form.text).toContain('<button type="submit" name="status" value="draft">Create change request</button>');
      expect(form.text).toContain('name="status" value="open" class="secondary">Create, ready for review</button>');
      const cr = await createInApp("Work in progress");
      expect(await statusOf(cr.id)).toBe("draft");
      const page = await alice.get(cr.path);
      expect(page.text).toContain('Status: <span class="status status-draft">draft</span>');
      expect(page.text).toContain('<button type="submit" name="intent" value="ready">Ready for review</button>');
      // The space's list shows it with its status.
      expect((await alice.get(space())).text).toMatch(new RegExp(`<span class="status status-draft">draft</span> <a href="${space()}/~/changes/${cr.number}">#${cr.number} Work in progress</a>`));

      const ready = await alice.submit(cr.path, cr.path, { intent: "ready" });
      expect(ready.status).toBe(303);
      expect(ready.location).toBe(cr.path);
      expect(await statusOf(cr.id)).toBe("open");
      const opened = await alice.get(cr.path);
      expect(opened.text).toContain('Status: <span class="status status-open">open</span>');
      expect(opened.text).not.toContain('value="ready"');
      expect(opened.text).toContain('value="to-draft"');
      expect((await alice.get(space())).text).toMatch(new RegExp(`<span class="status status-open">open</span> <a href="${space()}/~/changes/${cr.number}">`));

      // And back to a draft.
      expect((await alice.submit(cr.path, cr.path, { intent: "to-draft" })).status).toBe(303);
      expect(await statusOf(cr.id)).toBe("draft");
    });

    test("“Create, ready for review” opens it at once; a status that is neither is a 400 naming the field", async () => {
      const cr = await createInApp("Open at once", "open");
      expect(await statusOf(cr.id)).toBe("open");
      const before = (await w.alice.api.get(`/v1/spaces/${w.spaceId}/change-requests?status=draft`)).body.items.length;
      const bad = await alice.submit(space(), `${space()}/~/changes`, { subject: "Bad", status: "merged" });
      expect(bad.status).toBe(400);
      expect(bad.text).toContain("status");
      expect((await w.alice.api.get(`/v1/spaces/${w.spaceId}/change-requests?status=draft`)).body.items.length).toBe(before);
    });
  });

  describe("who may", () => {
    test("a reader can neither mark ready nor merge (403), and nothing changes", async () => {
      const cr = await createInApp("Not yours");
      await edit(cr.id, "Reader-proof page");
      const page = await readerBrowser.get(cr.path);
      expect(page.status).toBe(200);
      // The page offers neither.
      expect(page.text).not.toContain('value="ready"');
      expect(page.text).not.toContain('id="merge"');
      const csrf = csrfOf(page.text);
      const ready = await readerBrowser.post(cr.path, { _csrf: csrf, intent: "ready" });
      expect(ready.status).toBe(403);
      expect(await statusOf(cr.id)).toBe("draft");
      const merge = await readerBrowser.post(cr.path, { _csrf: csrf, intent: "merge", confirm: "yes" });
      expect(merge.status).toBe(403);
      expect(await statusOf(cr.id)).toBe("draft");
      // Nor the form creating a change request, which is refused too.
      const spacePage = await readerBrowser.get(space());
      expect(spacePage.status).toBe(200);
      expect(spacePage.text).toContain(`#${cr.number} Not yours</a>`);
      expect(spacePage.text).not.toContain(`action="${space()}/~/changes"`);
      const create = await readerBrowser.post(`${space()}/~/changes`, { _csrf: csrf, subject: "Reader's", status: "open" });
      expect(create.status).toBe(403);
      // Without the confirmation too: refused for who they are.
      expect((await readerBrowser.post(cr.path, { _csrf: csrf, intent: "merge" })).status).toBe(403);
    });

    test("another organization's user finds nothing (404); signed out is sent to sign in", async () => {
      const cr = await createInApp("Private");
      const page = await bob.get(cr.path);
      expect(page.status).toBe(404);
      const csrf = csrfOf((await bob.get("/app")).text);
      expect((await bob.post(cr.path, { _csrf: csrf, intent: "ready" })).status).toBe(404);
      expect((await bob.post(cr.path, { _csrf: csrf, intent: "merge", confirm: "yes" })).status).toBe(404);
      expect(await statusOf(cr.id)).toBe("draft");
      const anonymous = new Browser(sys.url);
      const res = await anonymous.get(cr.path);
      expect(res.status).toBe(303);
      expect(res.location).toBe(`/app/sign-in?return=${encodeURIComponent(cr.path)}`);
    });
  });

  describe("times", () => {
    test("change requests, comments and API tokens show a relative time in <time> with the exact UTC time as its title", async () => {
      const cr = await createInApp("Timed");
      const list = await alice.get(space());
      expect(list.text).toMatch(new RegExp(`#${cr.number} Timed</a> <span class="meta">by Alice, updated ${RECENT_TIME.source}`));
      const commented = await alice.submit(cr.path, cr.path, { intent: "comment", markdown: "A timed comment." });
      expect(commented.status).toBe(303);
      const page = await alice.get(cr.path);
      expect(page.text).toMatch(new RegExp(`opened by Alice ${RECENT_TIME.source}`));
      const comments = /<section id="comments">([\s\S]*?)<\/section>/.exec(page.text)?.[1] ?? "";
      expect(comments).toMatch(new RegExp(`<p class="meta">Alice ${RECENT_TIME.source}</p>`));
      // No raw ISO time printed as text anywhere on these pages.
      for (const text of [list.text, page.text]) expect(text.replace(/<time [^>]*>/g, "")).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);

      const token = await alice.submit("/app/account", "/app/account", { intent: "create-token", label: "Timed token" });
      expect(token.status).toBeLessThan(400);
      const account = await alice.get("/app/account");
      expect(account.text).toMatch(new RegExp(`<td>Timed token</td><td>${RECENT_TIME.source}</td>`));
      expect(account.text.replace(/<time [^>]*>/g, "")).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
    });
  });
});
