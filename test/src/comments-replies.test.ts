// Replies, reactions and page targets of space comments through HTTP, in every process mode.
import { createSpace, expectErrorBody, expectSchema, walkPages, type ApiClient, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { startCommentsCast } from "./comments-fixtures";
import { MODES } from "./modes";

describe.each(MODES)("comment replies, reactions and page targets over %s", (mode) => {
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

  /** A new space with one comment by `commenter`; returns the comment's path. */
  async function thread(extra: Record<string, unknown> = {}): Promise<{ spaceId: string; commentId: string; path: string }> {
    const spaceId = (await createSpace(owner.api, orgId)).id;
    const res = await commenter.api.post(`/v1/spaces/${spaceId}/comments`, { body: { markdown: "Topic" }, ...extra });
    if (res.status !== 200) throw new Error(`post comment: ${res.status} ${JSON.stringify(res.body)}`);
    return { spaceId, commentId: res.body.id, path: `/v1/spaces/${spaceId}/comments/${res.body.id}` };
  }

  async function reply(api: ApiClient, path: string, markdown = "Agreed"): Promise<any> {
    const res = await api.post(`${path}/replies`, { body: { markdown } });
    if (res.status !== 200) throw new Error(`post reply: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  describe("replies", () => {
    test("posting a reply is 200 with GitBook's shape and counts on the comment", async () => {
      const { path, spaceId, commentId } = await thread();
      const res = await other.api.post(`${path}/replies`, { body: { markdown: "Agreed" } });
      expect(res.status).toBe(200);
      expectSchema("postCommentReplyInSpace", 200, res.body);
      expect(res.body).toMatchObject({
        object: "comment-reply",
        body: { markdown: "Agreed" },
        reactions: [],
        postedBy: { id: other.id, displayName: "Other" },
        permissions: { view: true, edit: true, reply: true, delete: true },
      });
      expect(res.body.urls.location).toMatch(new RegExp(`/v1/spaces/${spaceId}/comments/${commentId}/replies/${res.body.id}$`));
      expect((await reader.api.get(path)).body.replies).toBe(1);
      const got = await reader.api.get(`${path}/replies/${res.body.id}`);
      expect(got.status).toBe(200);
      expectSchema("getCommentReplyInSpace", 200, got.body);
      expect(got.body.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
      const doc = await reader.api.get(`${path}/replies/${res.body.id}?format=document`);
      expectSchema("getCommentReplyInSpace", 200, doc.body);
      expect(doc.body.body.document.object).toBe("document");
    });

    test("replies list oldest first, page by page, with document bodies on request", async () => {
      const { path } = await thread();
      const ids: string[] = [];
      for (const text of ["r1", "r2", "r3"]) ids.push((await reply(text === "r2" ? other.api : commenter.api, path, text)).id);
      const first = await reader.api.get(`${path}/replies?limit=2`);
      expect(first.status).toBe(200);
      expectSchema("listCommentRepliesInSpace", 200, first.body);
      expect(first.body.count).toBe(3);
      expect(first.body.items.map((r: any) => r.body.markdown)).toEqual(["r1", "r2"]);
      const all = await walkPages(reader.api, `${path}/replies`, 1);
      expect(all.map((r) => r.id)).toEqual(ids);
      const doc = await reader.api.get(`${path}/replies?format=document`);
      expectSchema("listCommentRepliesInSpace", 200, doc.body);
      expect(doc.body.items[0].body.document.nodes[0].nodes[0].leaves[0].text).toBe("r1");
      expect((await reader.api.get(`${path}/replies?limit=0`)).status).toBe(400);
    });

    test("only the reply's author edits it; editedAt is set", async () => {
      const { path } = await thread();
      const mine = await reply(other.api, path, "Agred");
      for (const api of [commenter.api, owner.api]) {
        const res = await api.put(`${path}/replies/${mine.id}`, { body: { markdown: "Hijacked" } });
        expect(res.status).toBe(403);
        expectErrorBody(403, res.body);
      }
      const res = await other.api.put(`${path}/replies/${mine.id}`, { body: { markdown: "Agreed" } });
      expect(res.status).toBe(200);
      expectSchema("updateCommentReplyInSpace", 200, res.body);
      expect(res.body.body.markdown).toBe("Agreed");
      expect(typeof res.body.editedAt).toBe("string");
    });

    test("deleting a reply: the author or an admin, 403 for others, 204 when missing; the count follows", async () => {
      const { path } = await thread();
      const a = await reply(other.api, path, "a");
      const b = await reply(other.api, path, "b");
      expect((await reader.api.get(path)).body.replies).toBe(2);
      const refused = await commenter.api.delete(`${path}/replies/${a.id}`);
      expect(refused.status).toBe(403);
      expectErrorBody(403, refused.body);
      expect((await other.api.delete(`${path}/replies/${a.id}`)).status).toBe(204);
      expect((await owner.api.delete(`${path}/replies/${b.id}`)).status).toBe(204);
      expect((await other.api.delete(`${path}/replies/${a.id}`)).status).toBe(204);
      expect((await reader.api.get(path)).body.replies).toBe(0);
      const gone = await reader.api.get(`${path}/replies/${a.id}`);
      expect(gone.status).toBe(404);
      expectErrorBody(404, gone.body);
    });

    test("deleting a comment takes its replies along", async () => {
      const { path } = await thread();
      const r = await reply(other.api, path);
      expect((await commenter.api.delete(path)).status).toBe(204);
      expect((await reader.api.get(`${path}/replies/${r.id}`)).status).toBe(404);
      expect((await reader.api.get(`${path}/replies`)).status).toBe(404);
    });

    test("a reader may not reply (403); an outsider sees nothing (404); a missing comment is 404", async () => {
      const { path, spaceId } = await thread();
      const r = await reply(other.api, path);
      const refused = await reader.api.post(`${path}/replies`, { body: { markdown: "x" } });
      expect(refused.status).toBe(403);
      expectErrorBody(403, refused.body);
      for (const res of [
        await outsider.api.post(`${path}/replies`, { body: { markdown: "x" } }),
        await outsider.api.get(`${path}/replies`),
        await outsider.api.get(`${path}/replies/${r.id}`),
        await outsider.api.put(`${path}/replies/${r.id}`, { body: { markdown: "x" } }),
        await outsider.api.delete(`${path}/replies/${r.id}`),
        await commenter.api.post(`/v1/spaces/${spaceId}/comments/nocomment0000/replies`, { body: { markdown: "x" } }),
        await commenter.api.get(`/v1/spaces/${spaceId}/comments/nocomment0000/replies`),
      ]) {
        expect(res.status).toBe(404);
        expectErrorBody(404, res.body);
      }
    });

    test.each([
      ["no body", "body", {}],
      ["empty markdown", "body.markdown", { body: { markdown: "" } }],
      ["markdown of 65,537 characters", "body.markdown", { body: { markdown: "x".repeat(65_537) } }],
    ])("replying with %s is 400 naming %s", async (_label, field, body) => {
      const { path } = await thread();
      const res = await commenter.api.post(`${path}/replies`, body);
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain(field);
    });
  });

  describe("reactions", () => {
    test("each user reacts once per emoji; counts and users with reactedAt follow adds and removes", async () => {
      const { path } = await thread();
      const first = await commenter.api.put(path, { addedReactions: ["👍", "🎉"] });
      expect(first.status).toBe(200);
      expectSchema("updateCommentInSpace", 200, first.body);
      const twice = await other.api.put(path, { addedReactions: ["👍", "👍"] });
      expect(twice.body.reactions).toHaveLength(2);
      const thumbs = twice.body.reactions.find((r: any) => r.emoji === "👍");
      expect(thumbs.count).toBe(2);
      expect(thumbs.users.map((u: any) => u.user.id)).toEqual([commenter.id, other.id]);
      for (const u of thumbs.users) expect(Date.parse(u.reactedAt)).not.toBeNaN();
      const again = await other.api.put(path, { addedReactions: ["👍"] });
      expect(again.body.reactions.find((r: any) => r.emoji === "👍").count).toBe(2);
      const removed = await commenter.api.put(path, { removedReactions: ["👍", "🎉"] });
      expect(removed.body.reactions).toEqual([{ emoji: "👍", count: 1, users: [{ user: expect.objectContaining({ id: other.id }), reactedAt: expect.any(String) }] }]);
      const notMine = await commenter.api.put(path, { removedReactions: ["👍"] });
      expect(notMine.body.reactions[0].count).toBe(1);
      expect(notMine.body.editedAt).toBeUndefined();
      const last = await other.api.put(path, { removedReactions: ["👍"] });
      expect(last.body.reactions).toEqual([]);
    });

    test("emoji sent as code points or without the presentation selector count as the same emoji", async () => {
      const { path } = await thread();
      await commenter.api.put(path, { addedReactions: ["1f44d", "❤"] });
      const res = await other.api.put(path, { addedReactions: ["👍", "❤️"] });
      expect(res.body.reactions.map((r: any) => [r.emoji, r.count])).toEqual([
        ["👍", 2],
        ["❤️", 2],
      ]);
    });

    test.each([
      [{ addedReactions: ["smile"] }, "addedReactions[0]"],
      [{ addedReactions: ["👍", "👍👍"] }, "addedReactions[1]"],
      [{ removedReactions: ["x"] }, "removedReactions[0]"],
      [{ addedReactions: "👍" }, "addedReactions"],
      [{ addedReactions: ["x".repeat(51)] }, "addedReactions[0]"],
    ])("reacting with %j is 400 naming %s", async (body, field) => {
      const { path } = await thread();
      const res = await commenter.api.put(path, body);
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain(field);
    });

    test("replies carry reactions too; a reader may not react (403)", async () => {
      const { path } = await thread();
      const r = await reply(other.api, path);
      const res = await commenter.api.put(`${path}/replies/${r.id}`, { addedReactions: ["🚀"] });
      expect(res.status).toBe(200);
      expectSchema("updateCommentReplyInSpace", 200, res.body);
      expect(res.body.reactions).toEqual([{ emoji: "🚀", count: 1, users: [{ user: expect.objectContaining({ id: commenter.id }), reactedAt: expect.any(String) }] }]);
      expect(res.body.editedAt).toBeUndefined();
      const refused = await reader.api.put(`${path}/replies/${r.id}`, { addedReactions: ["🚀"] });
      expect(refused.status).toBe(403);
      expectErrorBody(403, refused.body);
      const bad = await commenter.api.put(`${path}/replies/${r.id}`, { addedReactions: ["nope"] });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain("addedReactions[0]");
    });

    test("concurrent reactions by many users are all kept", async () => {
      const { path } = await thread();
      await Promise.all([commenter, other, owner].map((u) => u.api.put(path, { addedReactions: ["👀"] })));
      const res = await reader.api.get(path);
      expect(res.body.reactions).toEqual([expect.objectContaining({ emoji: "👀", count: 3 })]);
    });
  });

  describe("page targets", () => {
    async function spaceWithPage(): Promise<{ spaceId: string; pageId: string }> {
      const spaceId = (await createSpace(owner.api, orgId)).id;
      const pageId = `pg${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
      const applied = await sys.admin.post(`/v1/_test/spaces/${spaceId}/changes`, {
        changes: [{ type: "insert_page", id: pageId, title: "Getting started", emoji: "🚀", markdown: "Hello" }],
      });
      if (applied.status !== 201) throw new Error(`apply changes: ${applied.status} ${JSON.stringify(applied.body)}`);
      return { spaceId, pageId };
    }

    test("a comment on a page carries the page's metadata, not outdated until the page changes", async () => {
      const { spaceId, pageId } = await spaceWithPage();
      const res = await commenter.api.post(`/v1/spaces/${spaceId}/comments`, { page: pageId, node: "n1", body: { markdown: "Typo here" } });
      expect(res.status).toBe(200);
      expectSchema("postCommentInSpace", 200, res.body);
      expect(res.body.target.page).toMatchObject({ id: pageId, title: "Getting started", emoji: "🚀", path: "getting-started", outdated: false });
      expect(typeof res.body.target.page.createdAt).toBe("string");
      expect(typeof res.body.target.page.updatedAt).toBe("string");
      expect(res.body.target.node).toEqual({ id: "n1" });
      const changed = await sys.admin.post(`/v1/_test/spaces/${spaceId}/changes`, {
        changes: [{ type: "update_page", page: pageId, title: "Start here", markdown: "Hello again" }],
      });
      expect(changed.status).toBe(201);
      const got = await reader.api.get(`/v1/spaces/${spaceId}/comments/${res.body.id}`);
      expectSchema("getCommentInSpace", 200, got.body);
      expect(got.body.target.page).toMatchObject({ id: pageId, title: "Start here", outdated: true });
      expect(got.body.target.revision).toBe(res.body.target.revision);
    });

    test("a comment whose page was deleted keeps the page as it was, outdated", async () => {
      const { spaceId, pageId } = await spaceWithPage();
      const res = await commenter.api.post(`/v1/spaces/${spaceId}/comments`, { page: pageId, body: { markdown: "x" } });
      await sys.admin.post(`/v1/_test/spaces/${spaceId}/changes`, { changes: [{ type: "delete_page", page: pageId }] });
      const got = await reader.api.get(`/v1/spaces/${spaceId}/comments/${res.body.id}`);
      expect(got.status).toBe(200);
      expectSchema("getCommentInSpace", 200, got.body);
      expect(got.body.target.page).toMatchObject({ id: pageId, title: "Getting started", outdated: true });
    });

    test("targetPage filters the list to one page's comments", async () => {
      const { spaceId, pageId } = await spaceWithPage();
      const onPage = await commenter.api.post(`/v1/spaces/${spaceId}/comments`, { page: pageId, body: { markdown: "on the page" } });
      await commenter.api.post(`/v1/spaces/${spaceId}/comments`, { body: { markdown: "on the space" } });
      const res = await reader.api.get(`/v1/spaces/${spaceId}/comments?targetPage=${pageId}`);
      expect(res.status).toBe(200);
      expectSchema("listCommentsInSpace", 200, res.body);
      expect(res.body.items.map((c: any) => c.id)).toEqual([onPage.body.id]);
      expect(res.body.count).toBe(1);
      expect((await reader.api.get(`/v1/spaces/${spaceId}/comments?targetPage=nopage`)).body.items).toEqual([]);
    });

    test("a page that is not in the space is 404", async () => {
      const { spaceId } = await spaceWithPage();
      const res = await commenter.api.post(`/v1/spaces/${spaceId}/comments`, { page: "nopage000000", body: { markdown: "x" } });
      expect(res.status).toBe(404);
      expectErrorBody(404, res.body);
      expect(res.body.error.message).toContain("nopage000000");
    });
  });
});
