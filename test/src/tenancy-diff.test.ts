// Issue 36, finding 4: a change request's changes page does bounded work per GET. Ten ~2,000-line pages
// rewritten from top to bottom (the line table of before took about half a second each, 10 MB of HTML
// for five) answer within seconds, each "too large to show here" with how many lines changed and a link
// to that page's own diff; a 2,000-line page with a few edits still shows its exact diff (changed lines
// with context, the rest folded). Another organization's API reads keep answering meanwhile.
import { createOrg, createSpace, createUser, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { Browser, signIn } from "./app-fixtures";
import { MODES, startPrivate } from "./modes";
import { addPages } from "./sites-serve-fixtures";

const LINES = 1990;
const text = (prefix: string, n = LINES) => Array.from({ length: n }, (_, i) => `${prefix} line ${i} of a long page`).join("\n") + "\n";

describe.each(MODES)("the changes page of a change request with large pages over %s", (mode) => {
  let sys: RunningSystem;
  let alice: TestUser;
  let other: TestUser;
  let otherSpace: string;
  let browser: Browser;
  let app: string;
  let bigIds: string[];
  let smallId: string;

  beforeAll(async () => {
    sys = await startPrivate(mode); // its own, run alone: it times another tenant's reads during an attack
    alice = await createUser(sys.admin, { displayName: "Alice" });
    other = await createUser(sys.admin, { displayName: "Other tenant" });
    const org = await createOrg(alice.api, "Alice's org");
    const space = await createSpace(alice.api, org.id, { title: "Big pages" });
    otherSpace = (await createSpace(other.api, (await createOrg(other.api, "Other org")).id, { title: "Theirs" })).id;
    for (let i = 0; i < 10; i++) await addPages(sys, space.id, [{ id: `big-${i}`, title: `Big ${i}`, markdown: text(`before ${i}`) }]);
    await addPages(sys, space.id, [{ id: "small-edit", title: "Small edit", markdown: text("kept") }]);
    const pages = (await alice.api.get(`/v1/spaces/${space.id}/content`)).body.pages as Array<{ id: string; title: string }>;
    bigIds = Array.from({ length: 10 }, (_, i) => pages.find((p) => p.title === `Big ${i}`)!.id);
    smallId = pages.find((p) => p.title === "Small edit")!.id;
    const cr = await alice.api.post(`/v1/spaces/${space.id}/change-requests`, { subject: "Rewrite everything" });
    expect(cr.status).toBe(201);
    const api = `/v1/spaces/${space.id}/change-requests/${cr.body.id}/content`;
    for (let i = 0; i < 10; i++) {
      const res = await alice.api.post(api, { changes: [{ operation: "update_page", page: bigIds[i], document: { markdown: text(`after ${i}`) } }] });
      expect(res.status).toBe(200);
    }
    const edited = text("kept").split("\n");
    edited[100] = "an edited line";
    edited.splice(1500, 0, "an inserted line");
    expect((await alice.api.post(api, { changes: [{ operation: "update_page", page: smallId, document: { markdown: edited.join("\n") } }] })).status).toBe(200);
    app = `/s/${space.id}/~/changes/${cr.body.number}`;
    browser = new Browser(sys.url);
    await signIn(browser, alice.token);
  }, 300_000);

  afterAll(async () => {
    await sys?.stop();
  });

  test("a GET is bounded: rewritten pages are too large to show (with a count and a link), a small edit shows exactly", async () => {
    // Another tenant's reads while the changes page is computed: none waits for seconds.
    let polling = true;
    const latencies: number[] = [];
    const poll = (async () => {
      while (polling) {
        const started = performance.now();
        const res = await other.api.get(`/v1/spaces/${otherSpace}`);
        latencies.push(performance.now() - started);
        expect(res.status).toBe(200);
      }
    })();
    const started = performance.now();
    const res = await browser.get(`${app}/~diff`);
    const took = performance.now() - started;
    polling = false;
    await poll;
    expect(res.status).toBe(200);
    // The table of before took about 5 s here for ten such pages (and 21 s for fifty); a generous bound.
    expect(took).toBeLessThan(3000);
    expect(Math.max(...latencies)).toBeLessThan(1500);
    // Before: 2 MB of HTML per rewritten page.
    expect(res.text.length).toBeLessThan(200_000);

    for (const id of bigIds) {
      const section = res.text.slice(res.text.indexOf(`id="page-${id}"`));
      expect(section.slice(0, section.indexOf("</article>"))).toContain(
        `Too large to show here, about ${2 * LINES} lines changed. <a href="${app}/~diff?page=${id}">Show this page’s changes</a>`,
      );
    }
    const small = res.text.slice(res.text.indexOf(`id="page-${smallId}"`));
    const article = small.slice(0, small.indexOf("</article>"));
    expect(article).toContain("<del>- kept line 100 of a long page</del>");
    expect(article).toContain("<ins>+ an edited line</ins>");
    expect(article).toContain("<ins>+ an inserted line</ins>");
    expect(article).toContain("  kept line 97 of a long page\n");
    expect(article).not.toContain("kept line 96 of a long page");
    expect(article).toContain("⋯ 97 unchanged lines");

    // Again: the diffs are kept by revisions, the answer is the same.
    const again = await browser.get(`${app}/~diff`);
    expect(again.status).toBe(200);
    expect(again.text.replace(/name="_csrf" value="[^"]+"/g, "")).toBe(res.text.replace(/name="_csrf" value="[^"]+"/g, ""));
  });

  test("the link shows one page's changes; over its larger bounds it says so; an unknown page is 404", async () => {
    const one = await browser.get(`${app}/~diff?page=${bigIds[3]}`);
    expect(one.status).toBe(200);
    expect(one.text).toContain("One page’s changes.");
    expect(one.text).toContain(`Too large to show here, about ${2 * LINES} lines changed.`);
    expect(one.text).not.toContain(`id="page-${bigIds[4]}"`);
    const small = await browser.get(`${app}/~diff?page=${smallId}`);
    expect(small.status).toBe(200);
    expect(small.text).toContain("<ins>+ an inserted line</ins>");
    expect((await browser.get(`${app}/~diff?page=nope`)).status).toBe(404);
  });

  test("the page view of a rewritten page links to its diff instead of showing 4,000 lines", async () => {
    const res = await browser.get(`${app}/big-0`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`Too large to show here, about ${2 * LINES} lines changed. <a href="${app}/~diff?page=${bigIds[0]}">`);
  });
});
