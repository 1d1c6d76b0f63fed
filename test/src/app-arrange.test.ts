// The app's change-request and team pages through the HTTP gateway, in both process modes: arranging a
// change request's pages (up, down, nest, un-nest, add under a page) as GitBook's update_page `into`/`at`
// moves them; its changes page by page and the pages that conflict with main (and a merge refused with
// them); placing a page before, inside or after another (the tree's drag and drop), renaming, deleting and undoing it;
// a team's members and removing a member of the organization. Each: a reader sees no form and is
// refused posting, another organization's user finds nothing, a form without its CSRF token is 403.
import { addMember, createUser, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { Browser, appWorld, csrfOf, signedIn, type AppWorld } from "./app-fixtures";
import { MODES, start } from "./modes";

interface TreePage {
  id: string;
  title: string;
  pages?: TreePage[];
}

describe.each(MODES)("arranging pages, changes and teams in the app over %s", (mode) => {
  let sys: RunningSystem;
  let w: AppWorld;
  let reader: TestUser;
  let alice: Browser;
  let readerBrowser: Browser;
  let bob: Browser;

  beforeAll(async () => {
    sys = await start(mode);
    w = await appWorld(sys);
    ({ reader, alice, readerBrowser, bob } = await signedIn(sys, w));
  }, 120_000);

  afterAll(async () => {
    await sys?.stop();
  });

  async function changeRequest(subject: string, changes: unknown[] = []) {
    const cr = await w.alice.api.post(`/v1/spaces/${w.spaceId}/change-requests`, { subject });
    expect(cr.status).toBe(201);
    const api = `/v1/spaces/${w.spaceId}/change-requests/${cr.body.id}`;
    if (changes.length) expect((await w.alice.api.post(`${api}/content`, { changes })).status).toBe(200);
    return { id: cr.body.id as string, number: cr.body.number as number, api, app: `/s/${w.spaceId}/~/changes/${cr.body.number}` };
  }

  async function tree(api: string): Promise<TreePage[]> {
    const res = await w.alice.api.get(`${api}/content`);
    expect(res.status).toBe(200);
    return res.body.pages;
  }
  const titles = (pages: TreePage[]): unknown[] => pages.map((p) => (p.pages?.length ? [p.title, titles(p.pages)] : p.title));
  const idOf = (pages: TreePage[], title: string): string => {
    for (const p of pages) {
      if (p.title === title) return p.id;
      const inner = p.pages?.length ? idOf(p.pages, title) : "";
      if (inner) return inner;
    }
    return "";
  };

  describe("arranging a change request's pages", () => {
    test("up, down, nest and un-nest move the page as update_page's into/at do; a page is added under another", async () => {
      const cr = await changeRequest("Arrange", [
        { operation: "insert_page", title: "Alpha", document: { markdown: "A" } },
        { operation: "insert_page", title: "Beta", document: { markdown: "B" } },
      ]);
      const pages = `${cr.app}/~pages`;
      const start = await tree(cr.api);
      const order = titles(start);
      expect(order.slice(-2)).toEqual(["Alpha", "Beta"]);
      const page = await alice.get(pages);
      expect(page.status).toBe(200);
      expect(page.text).toContain('name="direction" value="up"');
      const move = async (title: string, direction: string) => {
        const res = await alice.submit(pages, pages, { intent: "move", page: idOf(await tree(cr.api), title), direction });
        expect(res.status).toBe(303);
        expect(res.location).toBe(pages);
        return titles(await tree(cr.api));
      };
      const head = order.slice(0, -2);
      expect(await move("Beta", "up")).toEqual([...head, "Beta", "Alpha"]);
      expect(await move("Beta", "down")).toEqual([...head, "Alpha", "Beta"]);
      expect(await move("Beta", "in")).toEqual([...head, ["Alpha", ["Beta"]]]);
      const added = await alice.submit(pages, pages, { intent: "add-page", title: "Gamma", parent: idOf(await tree(cr.api), "Beta") });
      expect(added.status).toBe(303);
      expect(titles(await tree(cr.api))).toEqual([...head, ["Alpha", [["Beta", ["Gamma"]]]]]);
      expect(await move("Gamma", "out")).toEqual([...head, ["Alpha", ["Beta", "Gamma"]]]);
      expect(await move("Beta", "out")).toEqual([...head, ["Alpha", ["Gamma"]], "Beta"]);

      // A move the page cannot make is a 400 page naming it; an unknown page is not found; main is untouched.
      const first = idOf(await tree(cr.api), String(head[0]));
      const csrf = csrfOf((await alice.get(pages)).text);
      const refused = await alice.post(pages, { _csrf: csrf, intent: "move", page: first, direction: "up" });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain("cannot move that way");
      expect((await alice.post(pages, { _csrf: csrf, intent: "move", page: first, direction: "sideways" })).status).toBe(400);
      expect((await alice.post(pages, { _csrf: csrf, intent: "move", page: "nope", direction: "down" })).status).toBe(404);
      expect((await alice.post(pages, { _csrf: csrf, intent: "add-page", title: "" })).status).toBe(400);
      const main = await w.alice.api.get(`/v1/spaces/${w.spaceId}/content`);
      expect(JSON.stringify(main.body.pages)).not.toContain("Alpha");
    });

    test("a page placed before, inside or after another (the tree's drag and drop), renamed, deleted and brought back by its undo", async () => {
      const cr = await changeRequest("Placed", [
        { operation: "insert_page", title: "One", document: { markdown: "1" } },
        { operation: "insert_page", title: "Two", document: { markdown: "2" } },
        { operation: "insert_page", title: "Three", document: { markdown: "3" } },
      ]);
      const pages = `${cr.app}/~pages`;
      const head = titles(await tree(cr.api)).slice(0, -3);
      const mine = async () => titles(await tree(cr.api)).slice(head.length);
      const place = async (title: string, target: string, position: string) => {
        const now = await tree(cr.api);
        return alice.submit(pages, pages, { intent: "place", page: idOf(now, title), target: idOf(now, target), position });
      };
      expect((await place("Three", "One", "before")).location).toBe(pages);
      expect(await mine()).toEqual(["Three", "One", "Two"]);
      expect((await place("One", "Three", "inside")).status).toBe(303);
      expect(await mine()).toEqual([["Three", ["One"]], "Two"]);
      expect((await place("Three", "Two", "after")).status).toBe(303);
      expect(await mine()).toEqual(["Two", ["Three", ["One"]]]);
      // Into its own subpage, onto itself, or a position not offered: 400 naming it, nothing moved; an unknown page: 404.
      const bad = await place("Three", "One", "inside");
      expect(bad.status).toBe(400);
      expect(bad.text).toContain("cannot go there");
      expect((await place("Two", "Two", "before")).status).toBe(400);
      const sideways = await place("Two", "Three", "sideways");
      expect(sideways.status).toBe(400);
      expect(sideways.text).toContain("position");
      expect((await alice.submit(pages, pages, { intent: "place", page: "nope", target: idOf(await tree(cr.api), "Two"), position: "before" })).status).toBe(404);
      expect(await mine()).toEqual(["Two", ["Three", ["One"]]]);

      // Rename: the title; an empty or too long one is a 400 naming the field.
      expect((await alice.submit(pages, pages, { intent: "rename", page: idOf(await tree(cr.api), "Two"), title: "Deux" })).status).toBe(303);
      expect(await mine()).toEqual(["Deux", ["Three", ["One"]]]);
      for (const title of ["  ", "x".repeat(201)]) {
        const refused = await alice.submit(pages, pages, { intent: "rename", page: idOf(await tree(cr.api), "Deux"), title });
        expect(refused.status).toBe(400);
        expect(refused.text).toContain("title:");
      }

      // Delete Three (and One under it): the next page offers to undo it; Undo brings both back at their place.
      const deleted = await alice.submit(pages, pages, { intent: "delete", page: idOf(await tree(cr.api), "Three") });
      expect(deleted.status).toBe(303);
      expect(deleted.location).toMatch(/~pages\?deleted=[\w-]+&from=[\w-]+$/);
      expect(await mine()).toEqual(["Deux"]);
      const offered = await alice.get(deleted.location!);
      expect(offered.text).toContain("Deleted “Three” and 1 page under it");
      const revision = /name="revision" value="([\w-]+)"/.exec(offered.text)?.[1] ?? "";
      const page = /name="intent" value="restore"><input type="hidden" name="page" value="([\w-]+)"/.exec(offered.text)?.[1] ?? "";
      // A reader sees no undo; another organization's user finds nothing.
      expect((await readerBrowser.get(deleted.location!)).text).not.toContain("restore");
      expect((await bob.get(deleted.location!)).status).toBe(404);
      // A revision or page that is not one: refused, nothing written.
      const wrong = await alice.submit(pages, pages, { intent: "restore", page, revision: "nope" });
      expect(wrong.status).toBe(400);
      expect(await mine()).toEqual(["Deux"]);
      expect((await alice.submit(pages, pages, { intent: "restore", page, revision })).status).toBe(303);
      expect(await mine()).toEqual(["Deux", ["Three", ["One"]]]);
      // Once back, the undo is no longer offered, and a second undo is refused.
      expect((await alice.get(deleted.location!)).text).not.toContain("undo-delete");
      expect((await alice.submit(pages, pages, { intent: "restore", page, revision })).status).toBe(400);
      const one = await w.alice.api.get(`${cr.api}/content/path/three/one?format=markdown`);
      expect(one.status).toBe(200);
      expect(one.body.markdown).toContain("1");
    });

    test("a page group is added from the tree at the top level (the form's Add group); under a page or of another kind it is a 400 naming the field; a reader is refused, another organization finds nothing", async () => {
      const cr = await changeRequest("Grouped", [{ operation: "insert_page", title: "Epsilon", document: { markdown: "E" } }]);
      const pages = `${cr.app}/~pages`;
      const form = await alice.get(pages);
      expect(form.text).toContain('<button type="submit" name="kind" value="group">Add group</button>');
      const added = await alice.submit(pages, pages, { intent: "add-page", kind: "group", title: "Reference", parent: "" });
      expect(added.status).toBe(303);
      const now = await tree(cr.api);
      const group = now.find((p) => p.title === "Reference") as TreePage & { kind?: string; type?: string };
      expect(group).toMatchObject({ kind: "group", type: "group" });
      expect(now[now.length - 1].id).toBe(group.id);
      // The tree shows it as a group; a page goes under it as under any page.
      expect((await alice.get(pages)).text).toMatch(/data-type="group"><span class="page-title">Reference<\/span> <span class="meta tree-kind">group<\/span>/);
      expect((await alice.submit(pages, pages, { intent: "add-page", kind: "page", title: "Zeta", parent: group.id })).status).toBe(303);
      expect(titles(await tree(cr.api)).slice(-1)).toEqual([["Reference", ["Zeta"]]]);

      const before = JSON.stringify(await tree(cr.api));
      await alice.refused(pages, [
        [{ intent: "add-page", kind: "group", title: "Nested", parent: idOf(await tree(cr.api), "Epsilon") }, "parent: a group stays at the top level"],
        [{ intent: "add-page", kind: "folder", title: "Odd" }, "kind:"],
        [{ intent: "add-page", kind: "group", title: " " }, "A group needs a title"],
      ]);
      // A group is not nested by a drag either.
      const dragged = await alice.submit(pages, pages, { intent: "place", page: group.id, target: idOf(await tree(cr.api), "Epsilon"), position: "inside" });
      expect(dragged.status).toBe(400);
      expect(JSON.stringify(await tree(cr.api))).toBe(before);

      const seen = await readerBrowser.get(pages);
      expect(seen.text).not.toContain('value="group"');
      expect([403, 404]).toContain((await readerBrowser.post(pages, { _csrf: csrfOf(seen.text), intent: "add-page", kind: "group", title: "Theirs" })).status);
      const theirs = await bob.get(pages);
      expect(theirs.status).toBe(404);
      expect((await bob.post(pages, { _csrf: csrfOf(theirs.text), intent: "add-page", kind: "group", title: "Theirs" })).status).toBe(404);
      expect((await alice.post(pages, { intent: "add-page", kind: "group", title: "No token" })).status).toBe(403);
      expect(JSON.stringify(await tree(cr.api))).toBe(before);
    });

    test("without the CSRF token a move is refused (403); a reader sees no move form and is refused; another organization's user finds nothing", async () => {
      const cr = await changeRequest("Arrange guarded", [{ operation: "insert_page", title: "Delta", document: { markdown: "D" } }]);
      const pages = `${cr.app}/~pages`;
      const before = JSON.stringify(await tree(cr.api));
      const id = idOf(await tree(cr.api), "Delta");
      expect((await alice.post(pages, { intent: "move", page: id, direction: "up" })).status).toBe(403);

      const seen = await readerBrowser.get(pages);
      expect(seen.status).toBe(200);
      expect(seen.text).toContain("Delta");
      expect(seen.text).not.toContain('name="direction"');
      expect(seen.text).not.toContain('value="add-page"');
      const posted = await readerBrowser.post(pages, { _csrf: csrfOf(seen.text), intent: "move", page: id, direction: "up" });
      expect([403, 404]).toContain(posted.status);
      expect(JSON.stringify(await tree(cr.api))).toBe(before);

      const theirs = await bob.get(pages);
      expect(theirs.status).toBe(404);
      expect(theirs.text).not.toContain("Delta");
      expect((await bob.post(pages, { _csrf: csrfOf(theirs.text), intent: "move", page: id, direction: "up" })).status).toBe(404);
      // The tree's other forms alike: place, rename, delete and restore.
      const others: Array<Record<string, string>> = [
        { intent: "place", page: id, target: id, position: "before" },
        { intent: "rename", page: id, title: "Renamed" },
        { intent: "delete", page: id },
        { intent: "restore", page: id, revision: "r" },
      ];
      for (const fields of others) {
        expect((await alice.post(pages, fields)).status).toBe(403);
        expect([403, 404]).toContain((await readerBrowser.post(pages, { _csrf: csrfOf(seen.text), ...fields })).status);
        expect((await bob.post(pages, { _csrf: csrfOf(theirs.text), ...fields })).status).toBe(404);
      }
      expect(seen.text).not.toContain('value="delete"');
      expect(seen.text).not.toContain('value="rename"');
      expect(JSON.stringify(await tree(cr.api))).toBe(before);
    });
  });

  describe("a change request's changes, page by page", () => {
    test("added, removed, modified and moved pages are listed, each with its diff", async () => {
      const setup = await changeRequest("Setup", [{ operation: "insert_page", title: "Doomed", document: { markdown: "Soon gone.\n" } }]);
      expect((await w.alice.api.post(`${setup.api}/merge`, {})).status).toBe(200);
      const base = await tree(`/v1/spaces/${w.spaceId}`);
      const welcome = idOf(base, "Welcome");
      const cr = await changeRequest("Many changes", [
        { operation: "insert_page", title: "Fresh", document: { markdown: "A fresh page.\n" } },
        { operation: "update_page", page: welcome, document: { markdown: "# Welcome\n\nThe handbook, rewritten.\n" } },
      ]);
      const xss = base.find((p) => p.title.includes("Tricky"))!.id;
      expect((await w.alice.api.post(`${cr.api}/content`, { changes: [{ operation: "delete_page", page: idOf(base, "Doomed") }, { operation: "update_page", page: xss, into: welcome }] })).status).toBe(200);

      const res = await alice.get(`${cr.app}/~diff`);
      expect(res.status).toBe(200);
      const list = /<ul class="change-list">([\s\S]*?)<\/ul>/.exec(res.text)![1];
      expect(list).toMatch(/Fresh<\/a> <span class="meta">added</);
      expect(list).toMatch(/Welcome<\/a> <span class="meta">modified</);
      expect(list).toMatch(/Doomed<\/a> <span class="meta">removed</);
      expect(list).toMatch(/Tricky<\/a> <span class="meta">moved</);
      expect(res.text).toContain("<ins>+ The handbook, rewritten.</ins>");
      expect(res.text).toContain("<del>- The **handbook** starts here.</del>");
      expect(res.text).toContain("<ins>+ A fresh page.</ins>");
      expect(res.text).toContain("moved from the top level to Welcome");
      expect(res.text).toContain("<del>- Soon gone.</del>");
      // Titles and Markdown are shown escaped.
      expect(res.text).toContain("&lt;img src=x onerror=");
      expect(res.text).not.toContain("<img src=x");
      expect(res.text).toContain("Up to date with main.");

      // A reader reads it (no form on it); another organization's user finds nothing.
      const read = await readerBrowser.get(`${cr.app}/~diff`);
      expect(read.status).toBe(200);
      expect(read.text).toContain("rewritten");
      const theirs = await bob.get(`${cr.app}/~diff`);
      expect(theirs.status).toBe(404);
      expect(theirs.text).not.toContain("rewritten");
    });

    test("when main changed a page differently, the conflicting page is shown with both sides, and merging is refused with it", async () => {
      const welcome = idOf(await tree(`/v1/spaces/${w.spaceId}`), "Welcome");
      const mine = await changeRequest("Mine", [{ operation: "update_page", page: welcome, document: { markdown: "# Welcome\n\nMy version.\n" } }]);
      const theirs = await changeRequest("Theirs", [
        { operation: "update_page", page: welcome, document: { markdown: "# Welcome\n\nTheir version.\n" } },
        { operation: "insert_page", title: "Unrelated", document: { markdown: "x" } },
      ]);
      expect((await w.alice.api.post(`${theirs.api}/merge`, {})).status).toBe(200);

      expect((await alice.get(mine.app)).text).toContain(`<a href="${mine.app}/~diff#conflicts">`);
      const res = await alice.get(`${mine.app}/~diff`);
      expect(res.status).toBe(200);
      const section = /<section id="conflicts">([\s\S]*?)<\/section>/.exec(res.text)?.[1] ?? "";
      expect(section).toContain("<h3>Welcome</h3>");
      expect(section).toContain("changed on both sides differently (content)");
      expect(section).toContain("<ins>+ My version.</ins>");
      expect(section).toContain("<ins>+ Their version.</ins>");
      expect(section).not.toContain("Unrelated");

      const merge = await alice.submit(mine.app, mine.app, { intent: "merge", confirm: "yes" });
      expect(merge.status).toBe(409);
      expect(merge.text).toContain("Merge refused");
      expect(/<section class="refused"[\s\S]*?<\/section>/.exec(merge.text)?.[0]).toContain("Welcome");
      expect((await w.alice.api.get(mine.api)).body.status).not.toBe("merged");
    });
  });

  describe("teams and members", () => {
    let teamId: string;
    let carol: TestUser;

    beforeAll(async () => {
      carol = await createUser(sys.admin, { displayName: "Carol" });
      await addMember(w.alice.api, w.orgId, carol.email, "edit");
      const team = await w.alice.api.put(`/v1/orgs/${w.orgId}/teams`, { title: "Writers" });
      expect(team.status).toBe(201);
      teamId = team.body.id;
    });

    const teamMembers = async () => {
      const res = await w.alice.api.get(`/v1/orgs/${w.orgId}/teams/${teamId}/members`);
      expect(res.status).toBe(200);
      return (res.body.items as Array<{ organization: { user: { id: string } }; team: { role: string } }>).map((m) => [m.organization.user.id, m.team.role]);
    };

    test("an administrator adds a member to a team, changes their role in it and removes them", async () => {
      const path = `/o/${w.orgId}/teams/${teamId}`;
      const org = await alice.get(`/o/${w.orgId}`);
      expect(org.text).toContain(`href="${path}"`);
      const page = await alice.get(path);
      expect(page.status).toBe(200);
      expect(page.text).toContain("Writers");
      expect(page.text).toContain(`<option value="${carol.id}">Carol`);
      expect((await alice.submit(path, path, { intent: "add-member", user: carol.id, role: "member" })).location).toBe(path);
      expect(await teamMembers()).toEqual([[carol.id, "member"]]);
      expect((await alice.get(path)).text).toContain("Carol");
      expect((await alice.submit(path, path, { intent: "team-role", user: carol.id, role: "owner" })).status).toBe(303);
      expect(await teamMembers()).toEqual([[carol.id, "owner"]]);
      const bad = await alice.submit(path, path, { intent: "team-role", user: carol.id, role: "boss" });
      expect(bad.status).toBe(400);
      expect((await alice.submit(path, path, { intent: "team-role", user: reader.id, role: "owner" })).status).toBe(404);
      expect((await alice.submit(path, path, { intent: "remove-member", user: carol.id })).status).toBe(303);
      expect(await teamMembers()).toEqual([]);
    });

    test("without the CSRF token the forms are refused; a reader sees no form and is refused; another organization's user finds nothing", async () => {
      const path = `/o/${w.orgId}/teams/${teamId}`;
      expect((await alice.post(path, { intent: "add-member", user: carol.id, role: "member" })).status).toBe(403);
      expect((await alice.post(`/o/${w.orgId}`, { intent: "remove-member", user: carol.id })).status).toBe(403);
      expect(await teamMembers()).toEqual([]);

      const seen = await readerBrowser.get(path);
      expect(seen.status).toBe(200);
      expect(seen.text).not.toContain('value="add-member"');
      const csrf = csrfOf(seen.text);
      expect([403, 404]).toContain((await readerBrowser.post(path, { _csrf: csrf, intent: "add-member", user: reader.id, role: "owner" })).status);
      expect(await teamMembers()).toEqual([]);
      const org = await readerBrowser.get(`/o/${w.orgId}`);
      expect(org.text).not.toContain('value="remove-member"');
      expect([403, 404]).toContain((await readerBrowser.post(`/o/${w.orgId}`, { _csrf: csrf, intent: "remove-member", user: carol.id })).status);

      const other = await bob.get(path);
      expect(other.status).toBe(404);
      expect(other.text).not.toContain("Writers");
      expect((await bob.post(path, { _csrf: csrfOf(other.text), intent: "add-member", user: w.bob.id, role: "owner" })).status).toBe(404);
    });

    test("an administrator removes a member from the organization", async () => {
      const leaving = await createUser(sys.admin, { displayName: "Leaving" });
      await addMember(w.alice.api, w.orgId, leaving.email, "read");
      const org = await alice.get(`/o/${w.orgId}`);
      expect(org.text).toContain(`name="user" value="${leaving.id}"><button type="submit" class="small">Remove`);
      const res = await alice.post(`/o/${w.orgId}`, { _csrf: csrfOf(org.text), intent: "remove-member", user: leaving.id });
      expect(res.status).toBe(303);
      expect((await w.alice.api.get(`/v1/orgs/${w.orgId}/members/${leaving.id}`)).status).toBe(404);
    });
  });
});
