// Change request reviews, requested reviewers and the organization's merge rules through HTTP, in every process mode.
import { addMember, createOrg, createSpace, createUser, expectErrorBody, expectSchema, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, start } from "./modes";

describe.each(MODES)("change request reviews over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  let editor: TestUser;
  let reviewer: TestUser;
  let reviewer2: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let orgId: string;

  beforeAll(async () => {
    sys = await start(mode);
    [owner, editor, reviewer, reviewer2, reader, outsider] = await Promise.all([1, 2, 3, 4, 5, 6].map(() => createUser(sys.admin)));
    orgId = (await createOrg(owner.api)).id;
    await addMember(owner.api, orgId, editor.email, "edit");
    await addMember(owner.api, orgId, reviewer.email, "review");
    await addMember(owner.api, orgId, reviewer2.email, "review");
    await addMember(owner.api, orgId, reader.email, "read");
    await createOrg(outsider.api);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  async function changeRequest(): Promise<{ spaceId: string; cr: any; base: string }> {
    const spaceId = (await createSpace(owner.api, orgId, { title: "Docs" })).id;
    const res = await editor.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: "Proposal" });
    expect(res.status).toBe(201);
    return { spaceId, cr: res.body, base: `/v1/spaces/${spaceId}/change-requests/${res.body.id}` };
  }

  async function addPage(base: string, title: string) {
    const res = await editor.api.post(`${base}/content`, { changes: [{ operation: "insert_page", title, document: { markdown: `About ${title}.` } }] });
    expect(res.status).toBe(200);
  }

  async function setRules(mergeRules: unknown) {
    const res = await owner.api.patch(`/v1/orgs/${orgId}`, { mergeRules });
    expect(res.status).toBe(200);
    expectSchema("updateOrganizationById", 200, res.body, { latest: true });
    return res.body;
  }

  describe("reviews", () => {
    test("a reviewer approves or requests changes, with a comment; everyone who reads the space lists and reads them", async () => {
      const { base, cr } = await changeRequest();
      const submitted = await reviewer.api.post(`${base}/reviews`, { status: "changes-requested", comment: { markdown: "Please fix the intro." } });
      expect(submitted.status).toBe(201);
      expectSchema("submitChangeRequestReview", 201, submitted.body);
      expect(submitted.body).toMatchObject({ object: "change-request-review", status: "changes-requested", revision: cr.revision, outdated: false, reviewer: { id: reviewer.id } });
      expect(submitted.body.comment.body).toBeDefined();
      expect(submitted.headers.get("location")).toBe(submitted.body.urls.location);

      const approved = await reviewer2.api.post(`${base}/reviews`, { status: "approved" });
      expect(approved.status).toBe(201);
      expect(approved.body.comment).toBeUndefined();

      const list = await reader.api.get(`${base}/reviews`);
      expect(list.status).toBe(200);
      expectSchema("getReviewsByChangeRequestId", 200, list.body);
      expect(list.body.items.map((r: any) => r.id)).toEqual([submitted.body.id, approved.body.id]);
      expect(list.body.count).toBe(2);

      // A second review by the same reviewer supersedes their first: it is outdated.
      const again = await reviewer.api.post(`${base}/reviews`, { status: "approved" });
      expect(again.status).toBe(201);
      const outdated = await reader.api.get(`${base}/reviews?outdated=true`);
      expect(outdated.body.items.map((r: any) => r.id)).toEqual([submitted.body.id]);
      const current = await reader.api.get(`${base}/reviews?outdated=false&limit=1`);
      expectSchema("getReviewsByChangeRequestId", 200, current.body);
      expect(current.body.items.map((r: any) => r.id)).toEqual([approved.body.id]);
      const next = await reader.api.get(`${base}/reviews?outdated=false&limit=1&page=${current.body.next.page}`);
      expect(next.body.items.map((r: any) => r.id)).toEqual([again.body.id]);

      const one = await reader.api.get(`${base}/reviews/${submitted.body.id}`);
      expect(one.status).toBe(200);
      expectSchema("getChangeRequestReviewById", 200, one.body);
      expect(one.body).toMatchObject({ id: submitted.body.id, outdated: true, status: "changes-requested" });

      // The review's comment is a change request comment: replies to it show as its repliers.
      const reply = await editor.api.post(`${base}/comments/${submitted.body.comment.id}/replies`, { body: { markdown: "Fixed." } });
      expect(reply.status).toBe(200);
      const replied = await reader.api.get(`${base}/reviews/${submitted.body.id}`);
      expectSchema("getChangeRequestReviewById", 200, replied.body);
      expect(replied.body.comment).toMatchObject({ replies: 1, repliers: [{ count: 1, user: { id: editor.id } }] });
      expect((await reader.api.get(`${base}/reviews/nosuchreview`)).status).toBe(404);
    });

    test("reviewing needs the review role and another author; outsiders see nothing; bad input names the field", async () => {
      const { base } = await changeRequest();
      const byEditor = await editor.api.post(`${base}/reviews`, { status: "approved" });
      expect(byEditor.status).toBe(403);
      expectErrorBody(403, byEditor.body);
      const byReader = await reader.api.post(`${base}/reviews`, { status: "approved" });
      expect(byReader.status).toBe(403);
      expectErrorBody(403, byReader.body);
      for (const path of [`${base}/reviews`, `${base}/requested-reviewers`]) {
        const seen = await outsider.api.get(path);
        expect(seen.status).toBe(404);
        expectErrorBody(404, seen.body);
        expect((await sys.admin.as(undefined).get(path)).status).toBe(401);
        expect((await sys.admin.as("not-a-token").get(path)).status).toBe(401);
      }
      expect((await outsider.api.post(`${base}/reviews`, { status: "approved" })).status).toBe(404);
      // The author of a change request (here: the owner's own) cannot approve it.
      const own = await owner.api.post(`/v1/spaces/${base.split("/")[3]}/change-requests`, { subject: "Mine" });
      const self = await owner.api.post(`/v1/spaces/${base.split("/")[3]}/change-requests/${own.body.id}/reviews`, { status: "approved" });
      expect(self.status).toBe(403);
      for (const [body, field] of [
        [{}, "status"],
        [{ status: "maybe" }, "status"],
        [{ status: "approved", comment: { markdown: "" } }, "comment.markdown"],
      ] as const) {
        const res = await reviewer.api.post(`${base}/reviews`, body);
        expect(res.status).toBe(400);
        expectErrorBody(400, res.body);
        expect(res.body.error.message).toContain(field);
      }
      expect((await reader.api.get(`${base}/reviews`)).body.count).toBe(0);
      const badPage = await reader.api.get(`${base}/reviews?page=abc`);
      expect(badPage.status).toBe(400);
      expect(badPage.body.error.message).toContain("page");
    });
  });

  describe("requested reviewers", () => {
    test("the author asks reviewers, lists and removes them; a review answers the request and a new request outdates it", async () => {
      const { base, cr } = await changeRequest();
      const asked = await editor.api.post(`${base}/requested-reviewers`, { users: [reviewer.id, reviewer2.id], subject: "Please review" });
      expect(asked.status).toBe(200);
      expectSchema("requestReviewersForChangeRequest", 200, asked.body);
      expect(asked.body.users.map((u: any) => u.user.id)).toEqual([reviewer.id, reviewer2.id]);
      expect(asked.body.users[0]).toMatchObject({ object: "change-request-requested-reviewer", kind: "user", revision: cr.revision, requestedBy: { id: editor.id } });
      expect((await reader.api.get(base)).body.subject).toBe("Please review");

      const list = await reader.api.get(`${base}/requested-reviewers`);
      expect(list.status).toBe(200);
      expectSchema("getRequestedReviewersByChangeRequestId", 200, list.body);
      expect(list.body.items.map((u: any) => u.user.id).sort()).toEqual([reviewer.id, reviewer2.id].sort());

      // Removing: 205 when there was a request, 204 when there was none (GitBook's codes).
      const removed = await editor.api.delete(`${base}/requested-reviewers/${reviewer2.id}`);
      expect(removed.status).toBe(205);
      expect((await editor.api.delete(`${base}/requested-reviewers/${reviewer2.id}`)).status).toBe(204);

      const review = await reviewer.api.post(`${base}/reviews`, { status: "approved" });
      expect(review.body.requestedBy.id).toBe(editor.id);
      expect((await reader.api.get(`${base}/requested-reviewers`)).body.items).toEqual([]);

      // Asked again after an edit: the earlier approval is outdated until they review again.
      await addPage(base, "Later");
      await editor.api.post(`${base}/requested-reviewers`, { users: [reviewer.id] });
      expect((await reader.api.get(`${base}/reviews/${review.body.id}`)).body.outdated).toBe(true);
    });

    test("asking needs the edit role; users need the review role; outsiders see nothing; bad input names the field", async () => {
      const { base } = await changeRequest();
      const byReader = await reader.api.post(`${base}/requested-reviewers`, { users: [reviewer.id] });
      expect(byReader.status).toBe(403);
      expectErrorBody(403, byReader.body);
      expect((await reader.api.delete(`${base}/requested-reviewers/${reviewer.id}`)).status).toBe(403);
      expect((await outsider.api.post(`${base}/requested-reviewers`, { users: [reviewer.id] })).status).toBe(404);
      expect((await outsider.api.delete(`${base}/requested-reviewers/${reviewer.id}`)).status).toBe(404);
      for (const [body, field] of [
        [{}, "users"],
        [{ users: [] }, "users"],
        [{ users: [reader.id] }, "users"],
        [{ users: [outsider.id] }, "users"],
        [{ users: [editor.id] }, "users"],
        [{ users: [reviewer.id], subject: 5 }, "subject"],
      ] as const) {
        const res = await editor.api.post(`${base}/requested-reviewers`, body);
        expect(res.status).toBe(400);
        expectErrorBody(400, res.body);
        expect(res.body.error.message).toContain(field);
      }
      expect((await reader.api.get(`${base}/requested-reviewers`)).body.items).toEqual([]);
    });
  });

  describe("merge rules", () => {
    afterEach(async () => {
      await setRules({ type: "none" });
    });

    test("a rule requiring an approval blocks the merge until a reviewer approves", async () => {
      const org = await setRules({ type: "rules", rules: [{ rule: "require_at_least_one_approved_review" }] });
      expect(org.mergeRules).toEqual({ type: "rules", rules: [{ rule: "require_at_least_one_approved_review" }] });
      expect((await reader.api.get(`/v1/orgs/${orgId}`)).body.mergeRules.type).toBe("rules");
      const { base } = await changeRequest();
      await addPage(base, "Proposed");

      const blocked = await owner.api.post(`${base}/merge`);
      expect(blocked.status).toBe(409);
      expectErrorBody(409, blocked.body);
      expect(blocked.body.error.message).toContain("require_at_least_one_approved_review");
      expect((await reader.api.get(base)).body.status).not.toBe("merged");

      // Changes requested is not an approval.
      await reviewer.api.post(`${base}/reviews`, { status: "changes-requested" });
      expect((await owner.api.post(`${base}/merge`)).status).toBe(409);
      await reviewer2.api.post(`${base}/reviews`, { status: "approved" });
      const merged = await owner.api.post(`${base}/merge`);
      expect(merged.status).toBe(200);
      expectSchema("mergeChangeRequest", 200, merged.body);
    });

    test("an approval stays through edits; re-requesting the reviewer outdates it", async () => {
      await setRules({ type: "rules", rules: [{ rule: "require_at_least_one_approved_review" }, { rule: "require_all_reviews_approved" }] });
      const { base } = await changeRequest();
      await reviewer.api.post(`${base}/reviews`, { status: "approved" });
      await addPage(base, "After the approval");
      await editor.api.post(`${base}/requested-reviewers`, { users: [reviewer.id] });
      const stale = await owner.api.post(`${base}/merge`);
      expect(stale.status).toBe(409);
      expect(stale.body.error.message).toContain("require_at_least_one_approved_review");
      await reviewer.api.post(`${base}/reviews`, { status: "approved" });
      expect((await owner.api.post(`${base}/merge`)).status).toBe(200);
    });

    test("specific reviewers, bypass and author rules", async () => {
      await setRules({ type: "rules", rules: [{ rule: "require_specific_reviewers", users: [reviewer2.id] }, { rule: "allow_bypass", users: [owner.id] }] });
      const { base } = await changeRequest();
      await reviewer.api.post(`${base}/reviews`, { status: "approved" });
      // A reviewer who is neither named nor allowed to bypass is blocked; the bypassing owner is not.
      const blocked = await reviewer.api.post(`${base}/merge`);
      expect(blocked.status).toBe(409);
      expect(blocked.body.error.message).toContain("require_specific_reviewers");
      expect((await owner.api.post(`${base}/merge`)).status).toBe(200);

      await setRules({ type: "rules", rules: [{ rule: "require_author_to_merge" }] });
      const second = await changeRequest();
      const byOwner = await owner.api.post(`${second.base}/merge`);
      expect(byOwner.status).toBe(409);
      expect(byOwner.body.error.message).toContain("require_author_to_merge");
    });

    test("only an admin sets them; rules this instance cannot evaluate and bad shapes are 400 naming the field", async () => {
      const byReviewer = await reviewer.api.patch(`/v1/orgs/${orgId}`, { mergeRules: { type: "none" } });
      expect(byReviewer.status).toBe(403);
      expectErrorBody(403, byReviewer.body);
      expect((await outsider.api.patch(`/v1/orgs/${orgId}`, { mergeRules: { type: "none" } })).status).toBe(404);
      for (const [mergeRules, field] of [
        [{ type: "inherit" }, "mergeRules.type"],
        [{ type: "rules" }, "mergeRules.rules"],
        [{ type: "rules", rules: [{ rule: "custom", expression: "true" }] }, "mergeRules.rules[0].rule"],
        [{ type: "rules", rules: [{ rule: "require_at_least_one_review" }, { rule: "require_specific_reviewers" }] }, "mergeRules.rules[1].users"],
      ] as const) {
        const res = await owner.api.patch(`/v1/orgs/${orgId}`, { mergeRules });
        expect(res.status).toBe(400);
        expectErrorBody(400, res.body);
        expect(res.body.error.message).toContain(field);
      }
      expect((await owner.api.get(`/v1/orgs/${orgId}`)).body.mergeRules).toEqual({ type: "none" });
    });
  });

  describe("the organization's review queue", () => {
    let spaceA: string;
    let spaceB: string;
    let crs: any[];
    let guest: TestUser;
    let queueOrg: string;

    beforeAll(async () => {
      guest = await createUser(sys.admin);
      // A fresh organization, so the queue holds only this block's change requests.
      const org = (await createOrg(owner.api)).id;
      await addMember(owner.api, org, editor.email, "edit");
      await addMember(owner.api, org, reviewer.email, "review");
      await addMember(owner.api, org, guest.email, null);
      queueOrg = org;
      spaceA = (await createSpace(owner.api, org, { title: "A" })).id;
      spaceB = (await createSpace(owner.api, org, { title: "B" })).id;
      crs = [];
      for (const [space, as, subject] of [
        [spaceA, editor, "one"],
        [spaceB, editor, "two"],
        [spaceA, owner, "three"],
      ] as const) {
        const res = await as.api.post(`/v1/spaces/${space}/change-requests`, { subject });
        expect(res.status).toBe(201);
        crs.push(res.body);
      }
      // one and two open, three stays a draft; two waits for the reviewer.
      for (const cr of crs.slice(0, 2)) expect((await editor.api.patch(`/v1/spaces/${cr.space}/change-requests/${cr.id}`, { status: "open" })).status).toBe(200);
      expect((await editor.api.post(`/v1/spaces/${spaceB}/change-requests/${crs[1].id}/requested-reviewers`, { users: [reviewer.id] })).status).toBe(200);
    });
    const subjects = (body: any) => body.items.map((cr: any) => cr.subject);

    test("open change requests of every space, newest update first, with GitBook's filters", async () => {
      const path = `/v1/orgs/${queueOrg}/change-requests`;
      const open = await reviewer.api.get(path);
      expect(open.status).toBe(200);
      expectSchema("listChangeRequestsForOrganization", 200, open.body);
      expect(subjects(open.body)).toEqual(["two", "one"]);
      expect(open.body.count).toBe(2);
      expect(subjects((await reviewer.api.get(`${path}?status=draft`)).body)).toEqual(["three"]);
      expect(subjects((await reviewer.api.get(`${path}?status=draft&status=open&orderBy=createdAt`)).body)).toEqual(["three", "two", "one"]);
      expect(subjects((await reviewer.api.get(`${path}?space=${spaceA}&status=open&status=draft`)).body)).toEqual(["one", "three"]);
      expect(subjects((await reviewer.api.get(`${path}?creator=${owner.id}&status=draft`)).body)).toEqual(["three"]);
      expect(subjects((await reviewer.api.get(`${path}?contributor=${editor.id}`)).body)).toEqual(["two", "one"]);
      expect(subjects((await reviewer.api.get(`${path}?requestedReviewer=${reviewer.id}`)).body)).toEqual(["two"]);
      expect(subjects((await reviewer.api.get(`${path}?topic=any`)).body)).toEqual([]);
      expect(subjects((await reviewer.api.get(`${path}?finding=all`)).body)).toEqual(["two", "one"]);
      const paged = await reviewer.api.get(`${path}?limit=1`);
      expect(subjects(paged.body)).toEqual(["two"]);
      expect(subjects((await reviewer.api.get(`${path}?limit=1&page=${encodeURIComponent(paged.body.next.page)}`)).body)).toEqual(["one"]);

      // A site's spaces only.
      const site = await owner.api.post(`/v1/orgs/${queueOrg}/sites`, { title: "Handbook", spaces: [spaceB] });
      expect(site.status).toBe(201);
      expect(subjects((await reviewer.api.get(`${path}?site=${site.body.id}`)).body)).toEqual(["two"]);
      const noSite = await reviewer.api.get(`${path}?site=nosuchsite000000`);
      expect(noSite.status).toBe(400);
      expect(noSite.body.error.message).toContain("site");
    });

    test("a guest sees only the spaces open to them; another organization's caller 404; bad input names the field", async () => {
      const path = `/v1/orgs/${queueOrg}/change-requests`;
      const asGuest = await guest.api.get(path);
      expect(asGuest.status).toBe(200);
      expect(asGuest.body.items).toEqual([]);
      const other = await outsider.api.get(path);
      expect(other.status).toBe(404);
      expectErrorBody(404, other.body);
      expect((await sys.admin.as(undefined).get(path)).status).toBe(401);
      for (const [query, field] of [
        ["status=closed", "status"],
        ["orderBy=title", "orderBy"],
        ["finding=some", "finding"],
        ["limit=0", "limit"],
      ] as const) {
        const res = await reviewer.api.get(`${path}?${query}`);
        expect(res.status).toBe(400);
        expectErrorBody(400, res.body);
        expect(res.body.error.message).toContain(field);
      }
    });
  });
});
