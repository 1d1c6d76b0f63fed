// The commenters of a space and of a change request through HTTP, in every process mode.
import { addMember, createSpace, createUser, expectErrorBody, expectSchema, walkPages, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { startCommentsCast } from "./comments-fixtures";
import { MODES } from "./modes";

describe.each(MODES)("commenters over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  let orgId: string;
  let reader: TestUser;
  let commenter: TestUser;
  let other: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    ({ sys, owner, orgId, reader, commenter, other, outsider } = await startCommentsCast(mode));
  });
  afterAll(async () => {
    await sys?.stop();
  });

  async function comment(user: TestUser, base: string, markdown = "x"): Promise<string> {
    const res = await user.api.post(base, { body: { markdown } });
    if (res.status !== 200) throw new Error(`post comment: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id;
  }

  test("lists each member who commented or replied once, by first comment, as GitBook's members", async () => {
    const spaceId = (await createSpace(owner.api, orgId)).id;
    const base = `/v1/spaces/${spaceId}/comments`;
    const first = await comment(commenter, base);
    await comment(commenter, base);
    expect((await other.api.post(`${base}/${first}/replies`, { body: { markdown: "reply" } })).status).toBe(200);
    await comment(owner, base);
    const res = await reader.api.get(`/v1/spaces/${spaceId}/commenters`);
    expect(res.status).toBe(200);
    expectSchema("listCommentersInSpace", 200, res.body);
    expect(res.body.count).toBe(3);
    expect(res.body.items.map((m: any) => [m.id, m.role, m.user.displayName])).toEqual([
      [commenter.id, "comment", "Commenter"],
      [other.id, "comment", "Other"],
      [owner.id, "admin", "Owner"],
    ]);
    const paged = await walkPages(reader.api, `/v1/spaces/${spaceId}/commenters`, 1);
    expect(paged.map((m) => m.id)).toEqual([commenter.id, other.id, owner.id]);
  });

  test("someone whose last comment or reply is deleted leaves the list", async () => {
    const spaceId = (await createSpace(owner.api, orgId)).id;
    const base = `/v1/spaces/${spaceId}/comments`;
    const a = await comment(commenter, base);
    const b = await comment(commenter, base);
    const reply = await other.api.post(`${base}/${a}/replies`, { body: { markdown: "reply" } });
    const ids = async () => (await reader.api.get(`/v1/spaces/${spaceId}/commenters`)).body.items.map((m: any) => m.id);
    expect(await ids()).toEqual([commenter.id, other.id]);
    await other.api.delete(`${base}/${a}/replies/${reply.body.id}`);
    expect(await ids()).toEqual([commenter.id]);
    await commenter.api.delete(`${base}/${a}`);
    expect(await ids()).toEqual([commenter.id]);
    await commenter.api.delete(`${base}/${b}`);
    expect(await ids()).toEqual([]);
  });

  test("deleting a comment also drops repliers who have nothing else in the space", async () => {
    const spaceId = (await createSpace(owner.api, orgId)).id;
    const base = `/v1/spaces/${spaceId}/comments`;
    const a = await comment(commenter, base);
    await other.api.post(`${base}/${a}/replies`, { body: { markdown: "reply" } });
    await owner.api.delete(`${base}/${a}`);
    expect((await reader.api.get(`/v1/spaces/${spaceId}/commenters`)).body.items).toEqual([]);
  });

  test("a commenter who left the organization stays listed with no role, disabled", async () => {
    const leaver = await createUser(sys.admin, { displayName: "Leaver" });
    await addMember(owner.api, orgId, leaver.email, "comment");
    const spaceId = (await createSpace(owner.api, orgId)).id;
    await comment(leaver, `/v1/spaces/${spaceId}/comments`);
    expect((await owner.api.delete(`/v1/orgs/${orgId}/members/${leaver.id}`)).status).toBe(204);
    const res = await reader.api.get(`/v1/spaces/${spaceId}/commenters`);
    expectSchema("listCommentersInSpace", 200, res.body);
    expect(res.body.items).toEqual([expect.objectContaining({ id: leaver.id, role: null, disabled: true, user: expect.objectContaining({ displayName: "Leaver" }) })]);
  });

  test("commenters need a token (401) and a space the caller can see (404); limit is checked (400)", async () => {
    const spaceId = (await createSpace(owner.api, orgId)).id;
    const anon = await owner.api.as(undefined).get(`/v1/spaces/${spaceId}/commenters`);
    expect(anon.status).toBe(401);
    expectErrorBody(401, anon.body);
    const hidden = await outsider.api.get(`/v1/spaces/${spaceId}/commenters`);
    expect(hidden.status).toBe(404);
    expectErrorBody(404, hidden.body);
    const bad = await reader.api.get(`/v1/spaces/${spaceId}/commenters?limit=0`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("limit");
  });

  test("a change request has its own commenters", async () => {
    const spaceId = (await createSpace(owner.api, orgId)).id;
    const cr = await owner.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: "Proposal" });
    expect(cr.status).toBe(201);
    await comment(commenter, `/v1/spaces/${spaceId}/comments`);
    await comment(other, `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/comments`);
    const res = await reader.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/commenters`);
    expect(res.status).toBe(200);
    expectSchema("listCommentersInChangeRequest", 200, res.body);
    expect(res.body.items.map((m: any) => m.id)).toEqual([other.id]);
    expect((await reader.api.get(`/v1/spaces/${spaceId}/commenters`)).body.items.map((m: any) => m.id)).toEqual([commenter.id]);
    expect((await reader.api.get(`/v1/spaces/${spaceId}/change-requests/nochange0000/commenters`)).status).toBe(404);
  });
});
