// Reads of a space's comments and change requests decide access from answers each node keeps
// (contracts' kept-access), dropped by events. Every test here first reads as the user, so that the
// answer is kept, then changes their access through another path, and reads again at once: the read
// must follow the change. Without the drop on that path, the second read would still see the first answer.
import { addMember, createOrg, createSpace, createUser, expectSchema, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { MODES, start } from "./modes";

describe.each(MODES)("kept access answers over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  beforeAll(async () => {
    sys = await start(mode);
    owner = await createUser(sys.admin);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  interface World {
    orgId: string;
    spaceId: string;
    commentId: string;
    changeRequestId: string;
    user: TestUser;
  }

  /** A new organization with `role` for a new user, a space in it, a comment and a draft change request by the owner. */
  async function world(role: string | null): Promise<World> {
    return worldIn((await createOrg(owner.api)).id, role);
  }

  /** The four reads that use kept answers, as `user`: their statuses, and the bodies when 200. */
  async function reads(w: World, user = w.user) {
    const [comments, comment, crs, cr] = await Promise.all([
      user.api.get(`/v1/spaces/${w.spaceId}/comments`),
      user.api.get(`/v1/spaces/${w.spaceId}/comments/${w.commentId}`),
      user.api.get(`/v1/spaces/${w.spaceId}/change-requests?status=draft`),
      user.api.get(`/v1/spaces/${w.spaceId}/change-requests/${w.changeRequestId}`),
    ]);
    return { comments, comment, crs, cr, statuses: [comments.status, comment.status, crs.status, cr.status] };
  }

  async function readable(w: World, user = w.user) {
    const seen = await reads(w, user);
    expect(seen.statuses).toEqual([200, 200, 200, 200]);
    expectSchema("listCommentsInSpace", 200, seen.comments.body);
    expectSchema("getCommentInSpace", 200, seen.comment.body);
    expectSchema("listChangeRequestsForSpace", 200, seen.crs.body);
    expectSchema("getChangeRequestById", 200, seen.cr.body);
    return seen;
  }

  async function hidden(w: World, user = w.user) {
    const seen = await reads(w, user);
    expect(seen.statuses).toEqual([404, 404, 404, 404]);
  }

  test("leaving the organization hides them at once (orgs.members.changed)", async () => {
    const w = await world("read");
    await readable(w);
    expect((await owner.api.delete(`/v1/orgs/${w.orgId}/members/${w.user.id}`)).status).toBe(204);
    await hidden(w);
  });

  test("an organization role lowered or raised shows at once in what the reads allow (orgs.members.changed)", async () => {
    const w = await world("admin");
    expect((await readable(w)).comment.body.permissions).toMatchObject({ delete: true, reply: true });
    expect((await owner.api.patch(`/v1/orgs/${w.orgId}/members/${w.user.id}`, { role: "read" })).status).toBe(200);
    expect((await readable(w)).comment.body.permissions).toMatchObject({ delete: false, reply: false });
    expect((await owner.api.patch(`/v1/orgs/${w.orgId}/members/${w.user.id}`, { role: null })).status).toBe(200);
    await hidden(w);
  });

  test("a guest's own grant on the space taken away hides them at once (a write to the space)", async () => {
    const w = await world(null);
    await hidden(w);
    expect((await owner.api.post(`/v1/spaces/${w.spaceId}/permissions`, { role: "read", users: [w.user.id] })).status).toBe(204);
    await readable(w);
    expect((await owner.api.delete(`/v1/spaces/${w.spaceId}/permissions/users/${w.user.id}`)).status).toBe(204);
    await hidden(w);
  });

  test("a guest taken out of the team granted the space is hidden at once (team members)", async () => {
    const w = await world(null);
    const team = await owner.api.put(`/v1/orgs/${w.orgId}/teams`, { title: "Readers", members: [w.user.id] });
    expect(team.status).toBe(201);
    expect((await owner.api.post(`/v1/spaces/${w.spaceId}/permissions`, { role: "read", teams: [team.body.id] })).status).toBe(204);
    await readable(w);
    expect((await owner.api.delete(`/v1/orgs/${w.orgId}/teams/${team.body.id}/members/${w.user.id}`)).status).toBe(204);
    await hidden(w);
  });

  test("a guest's grant on the enclosing collection taken away hides them at once (orgs.collections.changed)", async () => {
    const orgId = (await createOrg(owner.api)).id;
    const collection = (await owner.api.post(`/v1/orgs/${orgId}/collections`, { title: "Shelf" })).body;
    const w = await worldIn(orgId, null, collection.id);
    await hidden(w);
    expect((await owner.api.post(`/v1/collections/${collection.id}/permissions`, { role: "read", users: [w.user.id] })).status).toBe(204);
    await readable(w);
    expect((await owner.api.delete(`/v1/collections/${collection.id}/permissions/users/${w.user.id}`)).status).toBe(204);
    await hidden(w);
  });

  test("a space's defaultLevel changed shows at once (a write to the space)", async () => {
    const w = await world("read");
    expect((await readable(w)).comment.body.permissions).toMatchObject({ delete: false });
    expect((await owner.api.patch(`/v1/spaces/${w.spaceId}`, { defaultLevel: "admin" })).status).toBe(200);
    expect((await readable(w)).comment.body.permissions).toMatchObject({ delete: true });
    expect((await owner.api.patch(`/v1/spaces/${w.spaceId}`, { defaultLevel: "inherit" })).status).toBe(200);
    expect((await readable(w)).comment.body.permissions).toMatchObject({ delete: false });
  });

  test("a deleted space is hidden at once, and back once restored", async () => {
    const w = await world("read");
    await readable(w);
    expect((await owner.api.delete(`/v1/spaces/${w.spaceId}`)).status).toBe(204);
    await hidden(w);
    expect((await owner.api.post(`/v1/spaces/${w.spaceId}/restore`, {})).status).toBe(200);
    await readable(w);
  });

  test("a space transferred to another organization is hidden at once from the first one's members", async () => {
    const w = await world("read");
    const other = (await createOrg(owner.api)).id;
    await readable(w);
    expect((await owner.api.post(`/v1/spaces/${w.spaceId}/transfer`, { organization: other })).status).toBe(200);
    await hidden(w);
    await readable(w, owner);
  });

  test("a change request becomes outdated in the reads as soon as main moves (the space's revision)", async () => {
    const w = await world("read");
    const seen = await readable(w);
    expect(seen.cr.body.outdated).toBe(false);
    // Another change request, with an edit, merged: main moves on.
    const other = await owner.api.post(`/v1/spaces/${w.spaceId}/change-requests`, { subject: "Moves main" });
    const edit = await owner.api.post(`/v1/spaces/${w.spaceId}/change-requests/${other.body.id}/content`, {
      changes: [{ operation: "insert_page", document: { markdown: "# New page\n\nHello." } }],
    });
    expect(edit.status).toBe(200);
    const merged = await owner.api.post(`/v1/spaces/${w.spaceId}/change-requests/${other.body.id}/merge`, {});
    expect(merged.status).toBe(200);
    const after = await readable(w);
    expect(after.cr.body.outdated).toBe(true);
    expect(after.crs.body.items.find((i: { id: string }) => i.id === w.changeRequestId).outdated).toBe(true);
  });

  test("someone from another organization never reads them, kept answers of others notwithstanding", async () => {
    const w = await world("read");
    await readable(w);
    const stranger = await createUser(sys.admin);
    await createOrg(stranger.api);
    await hidden(w, stranger);
    // The owner's kept answer is theirs alone: the reader's and the stranger's are their own.
    await readable(w, owner);
    await hidden(w, stranger);
  });

  /** In `orgId`: `role` for a new user, a space (in collection `parent`), a comment and a draft change request by the owner. */
  async function worldIn(orgId: string, role: string | null, parent?: string): Promise<World> {
    const user = await createUser(sys.admin);
    await addMember(owner.api, orgId, user.email, role);
    const space = await createSpace(owner.api, orgId, parent ? { parent } : {});
    const comment = await owner.api.post(`/v1/spaces/${space.id}/comments`, { body: { markdown: "First." } });
    expect(comment.status).toBe(200);
    const cr = await owner.api.post(`/v1/spaces/${space.id}/change-requests`, { subject: "Draft" });
    expect(cr.status).toBe(201);
    return { orgId, spaceId: space.id, commentId: comment.body.id, changeRequestId: cr.body.id, user };
  }
});
