// Comments on change requests through HTTP, in every process mode: the space comments' code on another thread.
import { addMember, createOrg, createSpace, createUser, expectErrorBody, expectSchema, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, start } from "./modes";

describe.each(MODES)("change request comments over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  let orgId: string;
  let reader: TestUser;
  let commenter: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    sys = await start(mode);
    owner = await createUser(sys.admin, { displayName: "Owner" });
    orgId = (await createOrg(owner.api)).id;
    reader = await createUser(sys.admin, { displayName: "Reader" });
    commenter = await createUser(sys.admin, { displayName: "Commenter" });
    outsider = await createUser(sys.admin, { displayName: "Outsider" });
    await addMember(owner.api, orgId, reader.email, "read");
    await addMember(owner.api, orgId, commenter.email, "comment");
  });
  afterAll(async () => {
    await sys?.stop();
  });

  /** A new space and a change request in it; `base` is the change request's comments path. */
  async function changeRequest(): Promise<{ spaceId: string; id: string; number: number; base: string }> {
    const spaceId = (await createSpace(owner.api, orgId)).id;
    const res = await owner.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: "Proposal" });
    if (res.status !== 201) throw new Error(`create change request: ${res.status} ${JSON.stringify(res.body)}`);
    return { spaceId, id: res.body.id, number: res.body.number, base: `/v1/spaces/${spaceId}/change-requests/${res.body.id}/comments` };
  }

  /** The change request's open-comment count, polled until it equals `expected` or the deadline passes (counts cross nodes). */
  async function expectChangeRequestComments(spaceId: string, id: string, expected: number): Promise<void> {
    const deadline = Date.now() + 5000;
    let count: unknown;
    do {
      const res = await owner.api.get(`/v1/spaces/${spaceId}/change-requests/${id}`);
      expect(res.status).toBe(200);
      count = res.body.comments;
      if (count === expected) return;
      await new Promise((resolve) => setImmediate(resolve));
    } while (Date.now() < deadline);
    expect(count).toBe(expected);
  }

  test("a comment on a change request names it in its target and location; its GitBook shapes validate", async () => {
    const cr = await changeRequest();
    const res = await commenter.api.post(cr.base, { body: { markdown: "Nice change" } });
    expect(res.status).toBe(200);
    expectSchema("postCommentInChangeRequest", 200, res.body);
    expect(res.body.target).toMatchObject({ space: cr.spaceId, changeRequest: cr.id });
    expect(res.body.urls.location).toMatch(new RegExp(`/v1/spaces/${cr.spaceId}/change-requests/${cr.id}/comments/${res.body.id}$`));
    const got = await reader.api.get(`${cr.base}/${res.body.id}`);
    expect(got.status).toBe(200);
    expectSchema("getCommentInChangeRequest", 200, got.body);
    const list = await reader.api.get(`${cr.base}?status=open&order=asc&authors=${commenter.id}`);
    expect(list.status).toBe(200);
    expectSchema("listCommentsInChangeRequest", 200, list.body);
    expect(list.body.items.map((c: any) => c.id)).toEqual([res.body.id]);
    const updated = await commenter.api.put(`${cr.base}/${res.body.id}`, { body: { markdown: "Very nice" }, addedReactions: ["👍"] });
    expect(updated.status).toBe(200);
    expectSchema("updateCommentInChangeRequest", 200, updated.body);
    expect(updated.body.reactions[0]).toMatchObject({ emoji: "👍", count: 1 });
  });

  test("the change request's number reaches the same comments as its id", async () => {
    const cr = await changeRequest();
    const posted = await commenter.api.post(`/v1/spaces/${cr.spaceId}/change-requests/${cr.number}/comments`, { body: { markdown: "By number" } });
    expect(posted.status).toBe(200);
    expect(posted.body.target.changeRequest).toBe(cr.id);
    const list = await reader.api.get(cr.base);
    expect(list.body.items.map((c: any) => c.id)).toEqual([posted.body.id]);
  });

  test("change request comments stay apart from the space's comments and counts", async () => {
    const cr = await changeRequest();
    const onSpace = await commenter.api.post(`/v1/spaces/${cr.spaceId}/comments`, { body: { markdown: "On the space" } });
    const onCr = await commenter.api.post(cr.base, { body: { markdown: "On the change request" } });
    expect((await reader.api.get(`/v1/spaces/${cr.spaceId}/comments`)).body.items.map((c: any) => c.id)).toEqual([onSpace.body.id]);
    expect((await reader.api.get(cr.base)).body.items.map((c: any) => c.id)).toEqual([onCr.body.id]);
    expect((await reader.api.get(`${cr.base}/${onSpace.body.id}`)).status).toBe(404);
    expect((await reader.api.get(`/v1/spaces/${cr.spaceId}/comments/${onCr.body.id}`)).status).toBe(404);
    // Counts follow a post in the background (packages/count-sync): polled.
    const deadline = Date.now() + 5000;
    let spaceComments: unknown;
    do spaceComments = (await owner.api.get(`/v1/spaces/${cr.spaceId}`)).body.comments;
    while (spaceComments !== 1 && Date.now() < deadline && (await new Promise((resolve) => setImmediate(resolve, true))));
    expect(spaceComments).toBe(1);
    await expectChangeRequestComments(cr.spaceId, cr.id, 1);
  });

  test("the change request's comments count follows post, resolve, reopen and delete", async () => {
    const cr = await changeRequest();
    await expectChangeRequestComments(cr.spaceId, cr.id, 0);
    const a = await commenter.api.post(cr.base, { body: { markdown: "a" } });
    const b = await commenter.api.post(cr.base, { body: { markdown: "b" } });
    await expectChangeRequestComments(cr.spaceId, cr.id, 2);
    await commenter.api.put(`${cr.base}/${a.body.id}`, { resolved: true });
    await expectChangeRequestComments(cr.spaceId, cr.id, 1);
    await commenter.api.put(`${cr.base}/${a.body.id}`, { resolved: false });
    await expectChangeRequestComments(cr.spaceId, cr.id, 2);
    expect((await commenter.api.delete(`${cr.base}/${b.body.id}`)).status).toBe(204);
    await expectChangeRequestComments(cr.spaceId, cr.id, 1);
  });

  test("replies on change request comments: post, list, get, update, delete", async () => {
    const cr = await changeRequest();
    const comment = await commenter.api.post(cr.base, { body: { markdown: "Topic" } });
    const path = `${cr.base}/${comment.body.id}`;
    const reply = await owner.api.post(`${path}/replies`, { body: { markdown: "Answer" } });
    expect(reply.status).toBe(200);
    expectSchema("postCommentReplyInChangeRequest", 200, reply.body);
    const list = await reader.api.get(`${path}/replies`);
    expect(list.status).toBe(200);
    expectSchema("listCommentRepliesInChangeRequest", 200, list.body);
    expect(list.body.items.map((r: any) => r.id)).toEqual([reply.body.id]);
    const got = await reader.api.get(`${path}/replies/${reply.body.id}`);
    expectSchema("getCommentReplyInChangeRequest", 200, got.body);
    const updated = await owner.api.put(`${path}/replies/${reply.body.id}`, { body: { markdown: "Better answer" } });
    expect(updated.status).toBe(200);
    expectSchema("updateCommentReplyInChangeRequest", 200, updated.body);
    const refused = await commenter.api.put(`${path}/replies/${reply.body.id}`, { body: { markdown: "x" } });
    expect(refused.status).toBe(403);
    expect((await reader.api.get(path)).body.replies).toBe(1);
    expect((await owner.api.delete(`${path}/replies/${reply.body.id}`)).status).toBe(204);
    expect((await reader.api.get(path)).body.replies).toBe(0);
  });

  test("a missing change request is 404; an outsider gets 404; a reader may not post (403); no token is 401", async () => {
    const cr = await changeRequest();
    for (const res of [
      await commenter.api.get(`/v1/spaces/${cr.spaceId}/change-requests/nochange0000/comments`),
      await commenter.api.post(`/v1/spaces/${cr.spaceId}/change-requests/nochange0000/comments`, { body: { markdown: "x" } }),
      await outsider.api.get(cr.base),
      await outsider.api.post(cr.base, { body: { markdown: "x" } }),
    ]) {
      expect(res.status).toBe(404);
      expectErrorBody(404, res.body);
    }
    const refused = await reader.api.post(cr.base, { body: { markdown: "x" } });
    expect(refused.status).toBe(403);
    expectErrorBody(403, refused.body);
    const anon = await owner.api.as(undefined).get(cr.base);
    expect(anon.status).toBe(401);
    expectErrorBody(401, anon.body);
  });

  test("deleting the space hides its change requests' comments", async () => {
    const cr = await changeRequest();
    const comment = await commenter.api.post(cr.base, { body: { markdown: "x" } });
    expect((await owner.api.delete(`/v1/spaces/${cr.spaceId}`)).status).toBe(204);
    const res = await owner.api.get(`${cr.base}/${comment.body.id}`);
    expect(res.status).toBe(404);
    expectErrorBody(404, res.body);
  });
});
