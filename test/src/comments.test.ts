// Space comments through HTTP, in every process mode: post, read, list with filters, update, resolve, delete, counts, permissions.
import { addMember, createSpace, createUser, expectErrorBody, expectSchema, walkPages, type ApiClient, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { startCommentsCast } from "./comments-fixtures";
import { MODES } from "./modes";

describe.each(MODES)("space comments over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  let orgId: string;
  let reader: TestUser;
  let commenter: TestUser;
  let other: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    ({ sys, owner, orgId, reader, commenter, other, outsider } = await startCommentsCast(mode, "edit"));
  });
  afterAll(async () => {
    await sys?.stop();
  });

  async function post(api: ApiClient, spaceId: string, markdown = "A remark", extra: Record<string, unknown> = {}): Promise<any> {
    const res = await api.post(`/v1/spaces/${spaceId}/comments`, { body: { markdown }, ...extra });
    if (res.status !== 200) throw new Error(`post comment: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** The space's open-comment count, polled until it equals `expected` or the deadline passes (counts cross nodes). */
  async function expectSpaceComments(spaceId: string, expected: number): Promise<void> {
    const deadline = Date.now() + 5000;
    let count: unknown;
    do {
      const res = await owner.api.get(`/v1/spaces/${spaceId}`);
      expect(res.status).toBe(200);
      count = res.body.comments;
      if (count === expected) return;
      await new Promise((resolve) => setImmediate(resolve));
    } while (Date.now() < deadline);
    expect(count).toBe(expected);
  }

  test("posting a comment is 200 with GitBook's shape, open, with the author's permissions", async () => {
    const space = await createSpace(owner.api, orgId);
    const res = await commenter.api.post(`/v1/spaces/${space.id}/comments`, { body: { markdown: "Looks **good**" } });
    expect(res.status).toBe(200);
    expectSchema("postCommentInSpace", 200, res.body);
    expect(res.body).toMatchObject({
      object: "comment",
      status: "open",
      replies: 0,
      reactions: [],
      body: { markdown: "Looks **good**" },
      target: { space: space.id, revision: space.body.revision },
      postedBy: { object: "user", id: commenter.id, displayName: "Commenter" },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    expect(res.body.urls.location).toMatch(new RegExp(`/v1/spaces/${space.id}/comments/${res.body.id}$`));
    expect(res.body.editedAt).toBeUndefined();
    expect(res.body.resolvedAt).toBeUndefined();
    const got = await reader.api.get(`/v1/spaces/${space.id}/comments/${res.body.id}`);
    expect(got.status).toBe(200);
    expectSchema("getCommentInSpace", 200, got.body);
    expect(got.body.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
  });

  test("a node target is kept on the comment", async () => {
    const space = await createSpace(owner.api, orgId);
    const comment = await post(commenter.api, space.id, "On this block", { node: "block-42" });
    expect(comment.target.node).toEqual({ id: "block-42" });
    expectSchema("postCommentInSpace", 200, comment);
  });

  test("a body of exactly 65,536 characters is accepted", async () => {
    const space = await createSpace(owner.api, orgId);
    const comment = await post(commenter.api, space.id, "x".repeat(65_536));
    expect(comment.body.markdown).toHaveLength(65_536);
  });

  test.each([
    ["no body", "body", {}],
    ["a body that is a string", "body", { body: "text" }],
    ["a body without markdown", "body.markdown", { body: {} }],
    ["empty markdown", "body.markdown", { body: { markdown: "" } }],
    ["markdown of 65,537 characters", "body.markdown", { body: { markdown: "x".repeat(65_537) } }],
    ["markdown that is a number", "body.markdown", { body: { markdown: 7 } }],
    ["a node that is a number", "node", { body: { markdown: "ok" }, node: 5 }],
    ["an empty page id", "page", { body: { markdown: "ok" }, page: "" }],
  ])("posting %s is 400 naming %s", async (_label, field, body) => {
    const space = await createSpace(owner.api, orgId);
    const res = await commenter.api.post(`/v1/spaces/${space.id}/comments`, body);
    expect(res.status).toBe(400);
    expectErrorBody(400, res.body);
    expect(res.body.error.message).toContain(field);
  });

  test("every comment endpoint needs a token (401)", async () => {
    const space = await createSpace(owner.api, orgId);
    const comment = await post(commenter.api, space.id);
    const base = `/v1/spaces/${space.id}/comments`;
    const anon = owner.api.as(undefined);
    for (const res of [
      await anon.get(base),
      await anon.post(base, { body: { markdown: "x" } }),
      await anon.get(`${base}/${comment.id}`),
      await anon.put(`${base}/${comment.id}`, { resolved: true }),
      await anon.delete(`${base}/${comment.id}`),
      await anon.get(`${base}/${comment.id}/replies`),
      await anon.post(`${base}/${comment.id}/replies`, { body: { markdown: "x" } }),
      await anon.get(`${base}/${comment.id}/replies/r1`),
      await anon.put(`${base}/${comment.id}/replies/r1`, { body: { markdown: "x" } }),
      await anon.delete(`${base}/${comment.id}/replies/r1`),
    ]) {
      expect(res.status).toBe(401);
      expectErrorBody(401, res.body);
    }
  });

  test("someone who cannot see the space gets 404 on its comments, and so does everyone for a missing space", async () => {
    const space = await createSpace(owner.api, orgId);
    const comment = await post(commenter.api, space.id);
    const base = `/v1/spaces/${space.id}/comments`;
    for (const res of [
      await outsider.api.get(base),
      await outsider.api.post(base, { body: { markdown: "x" } }),
      await outsider.api.get(`${base}/${comment.id}`),
      await outsider.api.put(`${base}/${comment.id}`, { resolved: true }),
      await outsider.api.delete(`${base}/${comment.id}`),
      await outsider.api.get(`${base}/${comment.id}/replies`),
      await owner.api.get(`/v1/spaces/nospace000000/comments`),
    ]) {
      expect(res.status).toBe(404);
      expectErrorBody(404, res.body);
    }
  });

  test("a reader reads comments but posting, resolving and reacting are 403", async () => {
    const space = await createSpace(owner.api, orgId);
    const comment = await post(commenter.api, space.id);
    const base = `/v1/spaces/${space.id}/comments`;
    const list = await reader.api.get(base);
    expect(list.status).toBe(200);
    for (const res of [
      await reader.api.post(base, { body: { markdown: "x" } }),
      await reader.api.put(`${base}/${comment.id}`, { resolved: true }),
      await reader.api.put(`${base}/${comment.id}`, { addedReactions: ["👍"] }),
      await reader.api.delete(`${base}/${comment.id}`),
    ]) {
      expect(res.status).toBe(403);
      expectErrorBody(403, res.body);
    }
    expect((await reader.api.get(`${base}/${comment.id}`)).body.status).toBe("open");
  });

  test("only the author edits a body; editedAt is set; others get 403, admins too", async () => {
    const space = await createSpace(owner.api, orgId);
    const comment = await post(commenter.api, space.id, "Frist");
    const path = `/v1/spaces/${space.id}/comments/${comment.id}`;
    for (const api of [other.api, owner.api]) {
      const res = await api.put(path, { body: { markdown: "Hijacked" } });
      expect(res.status).toBe(403);
      expectErrorBody(403, res.body);
    }
    const res = await commenter.api.put(path, { body: { markdown: "First" } });
    expect(res.status).toBe(200);
    expectSchema("updateCommentInSpace", 200, res.body);
    expect(res.body.body).toEqual({ markdown: "First" });
    expect(typeof res.body.editedAt).toBe("string");
    const limit = await commenter.api.put(path, { body: { markdown: "x".repeat(65_537) } });
    expect(limit.status).toBe(400);
    expect(limit.body.error.message).toContain("body.markdown");
  });

  test("the permissions object follows the caller: author, other commenter, reader, admin", async () => {
    const space = await createSpace(owner.api, orgId);
    const comment = await post(commenter.api, space.id);
    const path = `/v1/spaces/${space.id}/comments/${comment.id}`;
    const seen = async (api: ApiClient) => (await api.get(path)).body.permissions;
    expect(await seen(commenter.api)).toEqual({ view: true, edit: true, reply: true, delete: true });
    expect(await seen(other.api)).toEqual({ view: true, edit: false, reply: true, delete: false });
    expect(await seen(reader.api)).toEqual({ view: true, edit: false, reply: false, delete: false });
    expect(await seen(owner.api)).toEqual({ view: true, edit: false, reply: true, delete: true });
  });

  test("authors delete their own, admins delete any, others get 403; a missing comment deletes with 204", async () => {
    const space = await createSpace(owner.api, orgId);
    const mine = await post(commenter.api, space.id);
    const theirs = await post(other.api, space.id);
    const base = `/v1/spaces/${space.id}/comments`;
    const refused = await commenter.api.delete(`${base}/${theirs.id}`);
    expect(refused.status).toBe(403);
    expectErrorBody(403, refused.body);
    const own = await commenter.api.delete(`${base}/${mine.id}`);
    expect(own.status).toBe(204);
    expect(own.body).toBeUndefined();
    expect((await owner.api.delete(`${base}/${theirs.id}`)).status).toBe(204);
    for (const id of [mine.id, theirs.id]) {
      const gone = await owner.api.get(`${base}/${id}`);
      expect(gone.status).toBe(404);
      expectErrorBody(404, gone.body);
    }
    expect((await commenter.api.delete(`${base}/${mine.id}`)).status).toBe(204);
    expect((await commenter.api.delete(`${base}/nocomment0000`)).status).toBe(204);
  });

  test("resolving sets resolvedAt and resolvedBy; resolving false reopens", async () => {
    const space = await createSpace(owner.api, orgId);
    const comment = await post(commenter.api, space.id);
    const path = `/v1/spaces/${space.id}/comments/${comment.id}`;
    const resolved = await other.api.put(path, { resolved: true });
    expect(resolved.status).toBe(200);
    expectSchema("updateCommentInSpace", 200, resolved.body);
    expect(resolved.body).toMatchObject({ status: "resolved", resolvedBy: { id: other.id, object: "user" } });
    expect(Date.parse(resolved.body.resolvedAt)).not.toBeNaN();
    expect(resolved.body.editedAt).toBeUndefined();
    const again = await owner.api.put(path, { resolved: true });
    expect(again.body.resolvedBy.id).toBe(other.id);
    expect(again.body.resolvedAt).toBe(resolved.body.resolvedAt);
    const reopened = await commenter.api.put(path, { resolved: false });
    expect(reopened.status).toBe(200);
    expectSchema("updateCommentInSpace", 200, reopened.body);
    expect(reopened.body.status).toBe("open");
    expect(reopened.body.resolvedAt).toBeUndefined();
    expect(reopened.body.resolvedBy).toBeUndefined();
    const bad = await commenter.api.put(path, { resolved: "yes" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("resolved");
  });

  test("the space's comments count follows post, resolve, reopen and delete", async () => {
    const space = await createSpace(owner.api, orgId);
    await expectSpaceComments(space.id, 0);
    const a = await post(commenter.api, space.id);
    const b = await post(other.api, space.id);
    await expectSpaceComments(space.id, 2);
    await commenter.api.put(`/v1/spaces/${space.id}/comments/${a.id}`, { resolved: true });
    await expectSpaceComments(space.id, 1);
    await commenter.api.put(`/v1/spaces/${space.id}/comments/${a.id}`, { resolved: false });
    await expectSpaceComments(space.id, 2);
    await owner.api.delete(`/v1/spaces/${space.id}/comments/${b.id}`);
    await expectSpaceComments(space.id, 1);
    await commenter.api.put(`/v1/spaces/${space.id}/comments/${a.id}`, { resolved: true });
    await owner.api.delete(`/v1/spaces/${space.id}/comments/${a.id}`);
    await expectSpaceComments(space.id, 0);
  });

  test("posting many comments at once leaves the right count", async () => {
    const space = await createSpace(owner.api, orgId);
    await Promise.all(Array.from({ length: 12 }, (_, i) => post(i % 2 ? commenter.api : other.api, space.id, `c${i}`)));
    await expectSpaceComments(space.id, 12);
  });

  describe("listing", () => {
    let spaceId: string;
    let ids: string[];
    beforeAll(async () => {
      spaceId = (await createSpace(owner.api, orgId)).id;
      ids = [];
      for (const [api, text] of [
        [commenter.api, "one"],
        [other.api, "two"],
        [owner.api, "three"],
        [commenter.api, "four"],
      ] as const) {
        ids.push((await post(api, spaceId, text)).id);
      }
      await owner.api.put(`/v1/spaces/${spaceId}/comments/${ids[1]}`, { resolved: true });
    });
    const list = async (query: string, api = reader.api) => {
      const res = await api.get(`/v1/spaces/${spaceId}/comments${query}`);
      expect(res.status).toBe(200);
      expectSchema("listCommentsInSpace", 200, res.body);
      return res.body;
    };
    const texts = (body: any) => body.items.map((c: any) => c.body.markdown);

    test("lists newest first by default, oldest first with order=asc", async () => {
      expect(texts(await list(""))).toEqual(["four", "three", "two", "one"]);
      expect(texts(await list("?order=desc"))).toEqual(["four", "three", "two", "one"]);
      expect(texts(await list("?order=asc"))).toEqual(["one", "two", "three", "four"]);
    });

    test("filters by status: all (default), open, resolved", async () => {
      expect((await list("?status=all")).count).toBe(4);
      expect(texts(await list("?status=open"))).toEqual(["four", "three", "one"]);
      const resolved = await list("?status=resolved");
      expect(texts(resolved)).toEqual(["two"]);
      expect(resolved.count).toBe(1);
    });

    test("filters by one author (a single query value) or several (repeated keys)", async () => {
      expect(texts(await list(`?authors=${commenter.id}`))).toEqual(["four", "one"]);
      const both = await list(`?authors=${commenter.id}&authors=${owner.id}&order=asc`);
      expect(texts(both)).toEqual(["one", "three", "four"]);
      expect(both.count).toBe(3);
      expect((await list(`?authors=${outsider.id}`)).items).toEqual([]);
    });

    test("filters combine: an author's open comments", async () => {
      expect(texts(await list(`?authors=${other.id}&status=open`))).toEqual([]);
      expect(texts(await list(`?authors=${other.id}&status=resolved`))).toEqual(["two"]);
    });

    test("format=document gives bodies as documents", async () => {
      const body = await list("?format=document&limit=1");
      expect(body.items[0].body.document).toMatchObject({ object: "document", nodes: [{ object: "block", type: "paragraph" }] });
      const one = await reader.api.get(`/v1/spaces/${spaceId}/comments/${ids[0]}?format=document`);
      expectSchema("getCommentInSpace", 200, one.body);
      expect(one.body.body.document.nodes[0].nodes[0].leaves[0].text).toBe("one");
    });

    test("pages through every comment once, in either order", async () => {
      const desc = await walkPages(reader.api, `/v1/spaces/${spaceId}/comments`, 1);
      expect(desc.map((c) => c.id)).toEqual([...ids].reverse());
      const asc = await walkPages(reader.api, `/v1/spaces/${spaceId}/comments?order=asc&status=open`, 2);
      expect(asc.map((c) => c.id)).toEqual([ids[0], ids[2], ids[3]]);
      const first = await list("?limit=2");
      expect(first.items).toHaveLength(2);
      expect(first.count).toBe(4);
      expect(typeof first.next.page).toBe("string");
    });

    test.each([
      ["?limit=0", "limit"],
      ["?limit=1001", "limit"],
      ["?order=sideways", "order"],
      ["?status=closed", "status"],
      ["?format=html", "format"],
      ["?page=garbage", "page"],
      ["?authors=<65 characters>", "authors"],
    ])("listing with %s is 400 naming %s", async (label, field) => {
      const query = label.replace("<65 characters>", "a".repeat(65));
      const res = await reader.api.get(`/v1/spaces/${spaceId}/comments${query}`);
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain(field);
    });
  });

  test("deleting a space hides its comments; restoring shows them again", async () => {
    const space = await createSpace(owner.api, orgId);
    const comment = await post(commenter.api, space.id);
    expect((await owner.api.delete(`/v1/spaces/${space.id}`)).status).toBe(204);
    for (const res of [
      await owner.api.get(`/v1/spaces/${space.id}/comments`),
      await owner.api.get(`/v1/spaces/${space.id}/comments/${comment.id}`),
      await commenter.api.post(`/v1/spaces/${space.id}/comments`, { body: { markdown: "x" } }),
    ]) {
      expect(res.status).toBe(404);
      expectErrorBody(404, res.body);
    }
    expect((await owner.api.post(`/v1/spaces/${space.id}/restore`)).status).toBe(200);
    const back = await owner.api.get(`/v1/spaces/${space.id}/comments`);
    expect(back.body.items.map((c: any) => c.id)).toEqual([comment.id]);
  });

  test("comments of one space never show in another", async () => {
    const a = await createSpace(owner.api, orgId);
    const b = await createSpace(owner.api, orgId);
    const comment = await post(commenter.api, a.id);
    expect((await owner.api.get(`/v1/spaces/${b.id}/comments`)).body.items).toEqual([]);
    expect((await owner.api.get(`/v1/spaces/${b.id}/comments/${comment.id}`)).status).toBe(404);
    expect((await owner.api.delete(`/v1/spaces/${b.id}/comments/${comment.id}`)).status).toBe(204);
    expect((await owner.api.get(`/v1/spaces/${a.id}/comments/${comment.id}`)).status).toBe(200);
  });

  test("a new display name shows in the next answers that embed the user: comments and change requests (kept users are dropped on the change)", async () => {
    const renamer = await createUser(sys.admin, { displayName: "Before Rename" });
    await addMember(owner.api, orgId, renamer.email, "edit");
    const space = await createSpace(owner.api, orgId);
    await post(renamer.api, space.id, "Mine");
    const created = await renamer.api.post(`/v1/spaces/${space.id}/change-requests`, { subject: "Renamed later" });
    expect(created.status).toBe(201);
    const names = async () => ({
      comments: (await owner.api.get(`/v1/spaces/${space.id}/comments`)).body.items.map((c: any) => c.postedBy.displayName),
      changeRequests: (await owner.api.get(`/v1/spaces/${space.id}/change-requests?status=draft`)).body.items.map((cr: any) => cr.createdBy.displayName),
    });
    // Read once, so that the services keep the user.
    expect(await names()).toEqual({ comments: ["Before Rename"], changeRequests: ["Before Rename"] });

    expect((await renamer.api.patch(`/v1/users/${renamer.id}`, { displayName: "After Rename" })).status).toBe(200);
    // The change crosses nodes as an event: well within the 10 s a user is otherwise kept.
    const deadline = Date.now() + 5000;
    let seen = await names();
    while (Date.now() < deadline && JSON.stringify(seen) !== JSON.stringify({ comments: ["After Rename"], changeRequests: ["After Rename"] })) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = await names();
    }
    expect(seen).toEqual({ comments: ["After Rename"], changeRequests: ["After Rename"] });
    expect((await post(renamer.api, space.id, "Again")).postedBy.displayName).toBe("After Rename");
  });
});
