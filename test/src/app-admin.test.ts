// The app's administration pages through the HTTP gateway, in both process modes: renaming and deleting a
// team from its page (a second step: the confirm box), and the organization's settings page setting its
// merge rules (GitBook's MergeRules, as updateOrganization takes them), which a merge in the app then
// meets. Each: a reader or an editor is refused posting, another organization's user finds nothing, a
// form without its CSRF token is 403.
import { addMember, createUser, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { Browser, appWorld, csrfOf, signIn, type AppWorld } from "./app-fixtures";
import { MODES, start } from "./modes";

describe.each(MODES)("team and organization settings in the app over %s", (mode) => {
  let sys: RunningSystem;
  let w: AppWorld;
  let reader: TestUser;
  let editor: TestUser;
  let alice: Browser;
  let readerBrowser: Browser;
  let editorBrowser: Browser;
  let bob: Browser;

  beforeAll(async () => {
    sys = await start(mode);
    w = await appWorld(sys);
    reader = await createUser(sys.admin, { displayName: "Reader" });
    await addMember(w.alice.api, w.orgId, reader.email, "read");
    editor = await createUser(sys.admin, { displayName: "Editor" });
    await addMember(w.alice.api, w.orgId, editor.email, "edit");
    alice = new Browser(sys.url);
    await signIn(alice, w.alice.token);
    readerBrowser = new Browser(sys.url);
    await signIn(readerBrowser, reader.token);
    editorBrowser = new Browser(sys.url);
    await signIn(editorBrowser, editor.token);
    bob = new Browser(sys.url);
    await signIn(bob, w.bob.token);
  }, 120_000);

  afterAll(async () => {
    await sys?.stop();
  });

  describe("renaming and deleting a team", () => {
    async function newTeam(title: string): Promise<{ id: string; path: string; api: string }> {
      const team = await w.alice.api.put(`/v1/orgs/${w.orgId}/teams`, { title });
      expect(team.status).toBe(201);
      return { id: team.body.id, path: `/o/${w.orgId}/teams/${team.body.id}`, api: `/v1/orgs/${w.orgId}/teams/${team.body.id}` };
    }

    test("an administrator renames a team, and deletes it only with the confirm box ticked", async () => {
      const team = await newTeam("Writers");
      const page = await alice.get(team.path);
      expect(page.status).toBe(200);
      expect(page.text).toContain('value="rename"');
      expect(page.text).toContain('name="confirm" value="yes" required');
      expect((await alice.submit(team.path, team.path, { intent: "rename", title: "  Authors  " })).location).toBe(team.path);
      expect((await w.alice.api.get(team.api)).body.title).toBe("Authors");
      expect((await alice.get(team.path)).text).toContain("<h1>Authors</h1>");
      expect((await alice.get(`/o/${w.orgId}`)).text).toContain(">Authors</a>");

      const empty = await alice.submit(team.path, team.path, { intent: "rename", title: "   " });
      expect(empty.status).toBe(400);
      expect(empty.text).toContain("1 to 64 characters");
      expect((await alice.submit(team.path, team.path, { intent: "rename", title: "x".repeat(65) })).status).toBe(400);
      expect((await w.alice.api.get(team.api)).body.title).toBe("Authors");

      const unconfirmed = await alice.submit(team.path, team.path, { intent: "delete" });
      expect(unconfirmed.status).toBe(400);
      expect(unconfirmed.text).toContain("Tick the box");
      expect((await w.alice.api.get(team.api)).status).toBe(200);
      const deleted = await alice.submit(team.path, team.path, { intent: "delete", confirm: "yes" });
      expect(deleted.status).toBe(303);
      expect(deleted.location).toBe(`/o/${w.orgId}`);
      expect((await w.alice.api.get(team.api)).status).toBe(404);
      expect((await alice.get(team.path)).status).toBe(404);
      // Deleting it again (or a team that never was) is the not-found page, not a silent success.
      expect((await alice.post(team.path, { _csrf: csrfOf((await alice.get(`/o/${w.orgId}`)).text), intent: "delete", confirm: "yes" })).status).toBe(404);
    });

    test("without the CSRF token the forms are refused; a reader and an editor see no form and are refused; another organization's user finds nothing", async () => {
      const team = await newTeam("Keepers");
      expect((await alice.post(team.path, { intent: "rename", title: "Forged" })).status).toBe(403);
      expect((await alice.post(team.path, { intent: "delete", confirm: "yes" })).status).toBe(403);
      expect((await alice.post(team.path, { _csrf: "x".repeat(43), intent: "delete", confirm: "yes" })).status).toBe(403);

      for (const browser of [readerBrowser, editorBrowser]) {
        const seen = await browser.get(team.path);
        expect(seen.status).toBe(200);
        expect(seen.text).not.toContain('value="rename"');
        expect(seen.text).not.toContain('value="delete"');
        const csrf = csrfOf(seen.text);
        expect([403, 404]).toContain((await browser.post(team.path, { _csrf: csrf, intent: "rename", title: "Taken over" })).status);
        expect([403, 404]).toContain((await browser.post(team.path, { _csrf: csrf, intent: "delete", confirm: "yes" })).status);
      }

      const other = await bob.get(team.path);
      expect(other.status).toBe(404);
      expect(other.text).not.toContain("Keepers");
      const csrf = csrfOf(other.text);
      expect((await bob.post(team.path, { _csrf: csrf, intent: "rename", title: "Taken over" })).status).toBe(404);
      expect((await bob.post(team.path, { _csrf: csrf, intent: "delete", confirm: "yes" })).status).toBe(404);
      const kept = await w.alice.api.get(team.api);
      expect(kept.status).toBe(200);
      expect(kept.body.title).toBe("Keepers");
    });
  });

  describe("the organization's merge rules", () => {
    const settings = () => `/o/${w.orgId}/settings`;
    const rulesNow = async () => {
      const org = await w.alice.api.get(`/v1/orgs/${w.orgId}`);
      expect(org.status).toBe(200);
      return org.body.mergeRules;
    };

    test("an administrator sets the rules and sees them; a merge of their own change request in the app then needs an approval", async () => {
      const page = await alice.get(settings());
      expect(page.status).toBe(200);
      expect(page.text).toContain("No merge rule");
      expect((await alice.get(`/o/${w.orgId}`)).text).toContain(`href="${settings()}"`);

      const set = await alice.submit(settings(), settings(), {
        intent: "merge-rules",
        "rule-require_at_least_one_approved_review": "on",
        "users-allow_bypass": "",
      });
      expect(set.status).toBe(303);
      expect(set.location).toBe(settings());
      expect(await rulesNow()).toEqual({ type: "rules", rules: [{ rule: "require_at_least_one_approved_review" }] });
      const shown = await alice.get(settings());
      expect(shown.text).toContain("<li>Require at least one approving review</li>");
      expect(shown.text).toContain('name="rule-require_at_least_one_approved_review" value="on" checked');

      // Alice's own change request, with a change: the merge in the app is refused with the rule's reason.
      const cr = await w.alice.api.post(`/v1/spaces/${w.spaceId}/change-requests`, { subject: "Needs an approval" });
      expect(cr.status).toBe(201);
      const api = `/v1/spaces/${w.spaceId}/change-requests/${cr.body.id}`;
      expect((await w.alice.api.post(`${api}/content`, { changes: [{ operation: "insert_page", title: "Ruled", document: { markdown: "Ruled." } }] })).status).toBe(200);
      const app = `/s/${w.spaceId}/~/changes/${cr.body.number}`;
      const refused = await alice.submit(app, app, { intent: "merge", confirm: "yes" });
      expect(refused.status).toBe(400);
      expect(refused.text.toLowerCase()).toContain("approv");
      expect((await w.alice.api.get(api)).body.status).not.toBe("merged");

      // A user rule names members by id; the page keeps what it was given.
      const named = await alice.submit(settings(), settings(), {
        intent: "merge-rules",
        "rule-require_at_least_one_approved_review": "on",
        "users-allow_bypass": `${w.alice.id}, ${w.alice.id}`,
      });
      expect(named.status).toBe(303);
      expect(await rulesNow()).toEqual({ type: "rules", rules: [{ rule: "require_at_least_one_approved_review" }, { rule: "allow_bypass", users: [w.alice.id] }] });
      expect((await alice.get(settings())).text).toContain(`name="users-allow_bypass" maxlength="7000" autocomplete="off" value="${w.alice.id}"`);

      // Nothing ticked: no rule; the merge goes through.
      expect((await alice.submit(settings(), settings(), { intent: "merge-rules" })).status).toBe(303);
      expect(await rulesNow()).toEqual({ type: "none" });
      expect((await alice.submit(app, app, { intent: "merge", confirm: "yes" })).status).toBe(303);
      expect((await w.alice.api.get(api)).body.status).toBe("merged");
    });

    test("bad input is a 400 naming the rule, and changes nothing", async () => {
      const before = await rulesNow();
      const badId = await alice.submit(settings(), settings(), { intent: "merge-rules", "users-require_specific_reviewers": "{$ne: 1}" });
      expect(badId.status).toBe(400);
      expect(badId.text).toContain("Require a review from each of these users");
      const stranger = await alice.submit(settings(), settings(), { intent: "merge-rules", "users-require_specific_reviewers": w.bob.id });
      expect(stranger.status).toBe(400);
      expect(stranger.text).toContain("not a member of this organization");
      expect(await rulesNow()).toEqual(before);
    });

    test("without the CSRF token the form is refused; a reader and an editor see the rules without the form and are refused; another organization's user finds nothing", async () => {
      const before = await rulesNow();
      expect((await alice.post(settings(), { intent: "merge-rules", "rule-require_author_to_merge": "on" })).status).toBe(403);
      for (const browser of [readerBrowser, editorBrowser]) {
        const seen = await browser.get(settings());
        expect(seen.status).toBe(200);
        expect(seen.text).toContain("Merge rules");
        expect(seen.text).not.toContain('value="merge-rules"');
        const refused = await browser.post(settings(), { _csrf: csrfOf(seen.text), intent: "merge-rules", "rule-require_author_to_merge": "on" });
        expect([403, 404]).toContain(refused.status);
      }
      const other = await bob.get(settings());
      expect(other.status).toBe(404);
      expect((await bob.post(settings(), { _csrf: csrfOf(other.text), intent: "merge-rules", "rule-require_author_to_merge": "on" })).status).toBe(404);
      expect(await rulesNow()).toEqual(before);
    });
  });
});
