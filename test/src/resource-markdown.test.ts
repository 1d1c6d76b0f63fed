// Issue 36, finding 3: repeated headings once made Markdown rendering quadratic (each `# a` counted its
// anchor up from 1): one preview of 20,000 `# a` lines held the process about half a minute, 15,000 about
// 16 s. Through the app's preview, as a member of organization A would, while organization B's member
// reads its space.
import { createOrg, createSpace, createUser, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { addPages } from "./sites-serve-fixtures";
import { Browser, csrfOf, signIn } from "./app-fixtures";
import { probe } from "./resource-fixtures";
import { MODES, startPrivate } from "./modes";

const HEADINGS = 15_000;

describe.each(MODES)("repeated headings over %s", (mode) => {
  let sys: RunningSystem;
  let alice: TestUser;
  let bob: TestUser;
  let spaceId: string;
  let bobSpaceId: string;

  beforeAll(async () => {
    sys = await startPrivate(mode); // its own, run alone: it times another tenant's reads during an attack
    [alice, bob] = await Promise.all([createUser(sys.admin), createUser(sys.admin)]);
    const org = await createOrg(alice.api);
    const bobOrg = await createOrg(bob.api);
    spaceId = (await createSpace(alice.api, org.id, { title: "Handbook" })).id;
    bobSpaceId = (await createSpace(bob.api, bobOrg.id, { title: "Bob's" })).id;
    await addPages(sys, spaceId, [{ title: "Welcome", markdown: "# Welcome\n" }]);
  }, 120_000);

  afterAll(async () => {
    await sys?.stop();
  });

  test(`a preview of ${HEADINGS} identical headings renders with anchors a, a-1, … and another organization's reads do not wait`, async () => {
    const browser = new Browser(sys.url);
    await signIn(browser, alice.token);
    const created = await browser.submit(`/s/${spaceId}`, `/s/${spaceId}/~/changes`, { subject: "Many headings" });
    const crPath = created.location!;
    const editor = await browser.get(`${crPath}/welcome?edit=1`);
    expect(editor.status).toBe(200);

    const reads = probe(bob.api, `/v1/spaces/${bobSpaceId}`);
    const started = Date.now();
    const preview = await browser.post(`${crPath}/welcome`, { _csrf: csrfOf(editor.text), intent: "preview", markdown: "# a\n".repeat(HEADINGS) });
    const took = Date.now() - started;
    const latencies = await reads.stop();

    expect(preview.status).toBe(200);
    expect(preview.text).toContain('<h1 id="a" class="heading">a<a class="anchor" href="#a"');
    expect(preview.text).toContain('<h1 id="a-1" class="heading">a<a class="anchor" href="#a-1"');
    expect(preview.text).toContain(`<h1 id="a-${HEADINGS - 1}" class="heading">a<a class="anchor" href="#a-${HEADINGS - 1}"`);
    expect(preview.text).not.toContain(`id="a-${HEADINGS}"`);
    // Quadratic anchors held the process about 16 s here; linear ones a few hundred milliseconds. The
    // bounds are generous for a loaded machine (timings belong to bench/): this checks nothing stalls.
    expect(took).toBeLessThan(15_000);
    expect(latencies.failures).toBe(0);
    expect(latencies.max).toBeLessThan(8000);
  });
});
