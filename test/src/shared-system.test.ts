// The systems the suites share (global-setup.js): every suite gets the same running system of a mode, a suite's
// stop() leaves it running for the others, and what one suite makes never shows in another suite's world.
import { createOrg, createSpace, createUser, SHARED_SYSTEM_ENV, startEmbedded, type RunningSystem } from "@docshelf/testkit";
import { MODES, start } from "./modes";

/** One suite's world: a user of its own, their organization and a space with a page holding `word`. */
async function world(sys: RunningSystem, word: string) {
  const user = await createUser(sys.admin);
  const org = await createOrg(user.api);
  const space = await createSpace(user.api, org.id, { title: `Space ${word}` });
  const cr = await user.api.post(`/v1/spaces/${space.id}/change-requests`, { subject: "page" });
  expect(cr.status).toBe(201);
  const page = await user.api.post(`/v1/spaces/${space.id}/change-requests/${cr.body.id}/content`, {
    changes: [{ operation: "insert_page", title: `Page ${word}`, document: { markdown: `The word ${word} is here.` } }],
  });
  expect(page.status).toBe(200);
  expect((await user.api.post(`/v1/spaces/${space.id}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
  return { user, orgId: org.id, spaceId: space.id };
}

describe.each(MODES)("the shared %s system", (mode) => {
  test("every suite gets the one system the run started, and a suite's stop() leaves it running", async () => {
    const first = await start(mode);
    const second = await start(mode);
    expect(first.url).toBe(second.url);
    expect(JSON.parse(process.env[SHARED_SYSTEM_ENV[mode]] ?? "{}").url).toBe(first.url);
    await first.stop();
    expect((await fetch(`${second.url}/ready`)).status).toBe(200);
    expect((await second.admin.get("/v1/user")).status).toBe(200);
  });

  test("two suites' worlds on it never see each other: organizations, spaces and search", async () => {
    const sys = await start(mode);
    const wordA = `alpha${Date.now().toString(36)}`;
    const wordB = `bravo${Date.now().toString(36)}`;
    const [a, b] = await Promise.all([world(sys, wordA), world(sys, wordB)]);

    const orgsOfB = await b.user.api.get("/v1/orgs");
    expect(orgsOfB.status).toBe(200);
    expect(orgsOfB.body.items.map((o: { id: string }) => o.id)).toEqual([b.orgId]);
    expect((await b.user.api.get(`/v1/orgs/${a.orgId}/spaces`)).status).toBe(404);
    expect((await b.user.api.get(`/v1/spaces/${a.spaceId}`)).status).toBe(404);

    const found = await b.user.api.get(`/v1/orgs/${b.orgId}/search?query=${wordA}`);
    expect(found.status).toBe(200);
    expect(found.body.items).toEqual([]);
    const own = await a.user.api.get(`/v1/orgs/${a.orgId}/search?query=${wordA}`);
    expect(own.status).toBe(200);
    expect(JSON.stringify(own.body.items)).toContain(`Page ${wordA}`);
  });
});

describe("a suite that sets a configuration variable", () => {
  test("is refused the shared system, which lacks that setting, and told to start its own", async () => {
    const saved = process.env.OPENAPI_FETCH_TIMEOUT_MS;
    process.env.OPENAPI_FETCH_TIMEOUT_MS = "1234";
    try {
      await expect(start(MODES[0])).rejects.toThrow(/sets OPENAPI_FETCH_TIMEOUT_MS.*start a system of its own/);
    } finally {
      if (saved === undefined) delete process.env.OPENAPI_FETCH_TIMEOUT_MS;
      else process.env.OPENAPI_FETCH_TIMEOUT_MS = saved;
    }
  });
});

describe("the suites' fetch (setup-fetch.ts)", () => {
  test("a request written on a kept-alive connection the server closed meanwhile still arrives", async () => {
    // An in-process system, and this process busy past the server's 5 s keep-alive: the pooled connection is
    // closed by the time the next request is written on it.
    const sys = await startEmbedded();
    try {
      expect((await fetch(`${sys.url}/health`)).status).toBe(200);
      const until = Date.now() + 6_500;
      while (Date.now() < until) {
        /* busy, as a suite that computes */
      }
      expect((await fetch(`${sys.url}/health`)).status).toBe(200);
      expect((await sys.admin.get("/v1/user")).status).toBe(200);
    } finally {
      await sys.stop();
    }
  });
});
