// `app.serve`: the one action the gateway calls for every app request (GET and POST under /app, /o, /s).
// It signs in and out, finds the signed-in user of the session cookie, checks every form's CSRF token,
// and renders the page of the path, reading everything through the other services' actions as the user.
import { hashToken, type Caller, type Role, type RoleOrGuest } from "@docshelf/access";
import { call, STREAM_HEAD_META, type Action } from "@docshelf/contracts/action";
import { Readable } from "node:stream";
import { STREAM_OVER_BYTES, utf8Chunks } from "@docshelf/runtime";
import * as changeRequests from "@docshelf/contracts/change-requests";
import * as comments from "@docshelf/contracts/comments";
import { fileLimitForPayload, transporterMaxPayload } from "@docshelf/contracts/app";
import * as contentApi from "@docshelf/contracts/content";
import * as identity from "@docshelf/contracts/identity";
import * as openapi from "@docshelf/contracts/openapi";
import * as orgs from "@docshelf/contracts/orgs";
import * as sites from "@docshelf/contracts/sites";
import { asset, json, page, parseCookies, redirect, scriptPage, setCookie, type AppAnswer, type AppRequest } from "./http";
import { assetAnswer, editorAssets, shellScript } from "./assets";
import { THEME_COOKIE, themeOf } from "./theme";
import { jumpRoute, mentionsRoute } from "./jump";
import { sharedWorkerPool } from "@docshelf/worker-pool";
import { compareOffThread, DiffCache, PAGE_LIMITS, requestBudget, SINGLE_PAGE_LIMITS, type DiffBudget, type DiffLimits, type PageDiff } from "./diff";
import { checkDocument, DocumentError, renderMarkdown } from "@docshelf/document";
import { STYLESHEET, messagePage, type Viewer } from "./pages/layout";
import { openapiPage, orgsPage, teamPage } from "./pages/org";
import { mergeRulesOfForm } from "./merge-rules";
import { settingsPage } from "./pages/settings";
import { arrangePage, changesPage, type ShownConflict, type ShownPageChange } from "./pages/changes";
import { DIRECTIONS, POSITIONS, moveChange, placeChange, placeOf, subtreeIds, type Direction, type Position } from "./arrange";
import { pageChanges, pageConflicts, type PageChanges } from "./conflicts";
import { signInPage, ssoChoicePage } from "./pages/sign-in";
import { MAX_UPLOAD_BYTES, blockEditorPage, changeRequestFilesPage, changeRequestPage, editPage, filesPage, firstDocument, searchPage, spacePage, type ChangeRequestView, type ShownComment, type SpaceView, type TreeNode } from "./pages/space";
import {
  PRESESSION_COOKIE,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  csrfMatches,
  csrfToken,
  isSecret,
  localReturnPath,
  newSecret,
  sessionHash,
  ssoBinding,
} from "./sessions";
import type { AppActions, AppService, Ctx } from "./service-types";
import { PageError, badForm, notFound, refusalMessage } from "./page-error";
import { notificationsPage } from "./pages/notifications";
import { adminRoute, type As } from "./admin";
import { historyRoute } from "./history";
import { contentChanged, markdownIn } from "./revision-pages";
import { action } from "@docshelf/contracts/action";

/** Whether the space's permissions (GitBook's, as the API gives them to this user) grant `what`. */
function may(space: contentApi.SpaceResource, what: "edit" | "merge"): boolean {
  return (space.permissions as Record<string, unknown> | undefined)?.[what] === true;
}

/** GitBook's updateChangeRequest (PATCH): the app moves a change request's status (draft ⇄ open). */
const updateChangeRequest = action<changeRequests.ChangeRequestRef & { status: "draft" | "open" }, changeRequests.ChangeRequestResource>("change-requests.update");


type PageContent = contentApi.PageResource;

/** The path's segments, percent-decoded; null when one cannot be decoded. */
function segmentsOf(path: string): string[] | null {
  try {
    return path.split("/").slice(1).filter((s, i, all) => s !== "" || i < all.length - 1).map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
}

/**
 * Page trees by space and revision: a big space's tree is the slowest read of a page (10,000 pages are
 * megabytes of JSON), and the same for every reader of the revision. Read only after `content.getSpace`
 * answered the user (the permission check), kept briefly (computed pages may change without a revision).
 */
const TREE_CACHE_SIZE = 32;
const TREE_TTL_MS = 60_000;
const trees = new Map<string, { at: number; pages: TreeNode[] }>();

async function currentTree(as: As, space: SpaceView & { revision?: string }): Promise<TreeNode[]> {
  const key = typeof space.revision === "string" ? `${space.id}@${space.revision}` : undefined;
  const hit = key ? trees.get(key) : undefined;
  if (hit && Date.now() - hit.at < TREE_TTL_MS) return hit.pages;
  const { pages } = await as(contentApi.getCurrentRevision, { spaceId: space.id });
  if (key) {
    trees.delete(key);
    trees.set(key, { at: Date.now(), pages });
    if (trees.size > TREE_CACHE_SIZE) trees.delete(trees.keys().next().value as string);
  }
  return pages;
}

/** The most pages the block editor's link picker is given. */
const EDITOR_PAGES = 2000;

const ROLES_OFFERED = ["admin", "create", "review", "edit", "comment", "read", "guest"];

const TOKEN = /^[A-Za-z0-9._~+/=-]{8,256}$/;

export const serveActions: AppActions = {
  serve: {
    visibility: "public",
    params: {
      method: { type: "enum", values: ["GET", "HEAD", "POST"] },
      path: { type: "string", min: 1, max: 4096 },
      query: { type: "object", optional: true },
      form: { type: "object", optional: true },
      upload: {
        type: "object",
        optional: true,
        props: {
          field: { type: "string", max: 64 },
          name: { type: "string", max: 1024 },
          contentType: { type: "string", max: 1024 },
          base64: { type: "string" },
          size: { type: "number", integer: true, min: 0, optional: true },
          omitted: { type: "boolean", optional: true },
        },
      },
      cookie: { type: "string", optional: true, max: 16384 },
      secure: { type: "boolean", optional: true },
      requestID: { type: "string", optional: true, max: 64 },
    },
    async handler(this: AppService, ctx: Ctx<AppRequest>): Promise<AppAnswer | Readable> {
      return streamedIfLong(ctx, await answerRequest.call(this, ctx));
    },
  },
};

/** One request of the app, answered whole. */
async function answerRequest(this: AppService, ctx: Ctx<AppRequest>): Promise<AppAnswer> {
  const req = { ...ctx.params, query: ctx.params.query ?? {}, secure: ctx.params.secure === true };
  const post = req.method === "POST";
  if (req.path === "/app/style.css") return asset("text/css; charset=utf-8", STYLESHEET);
  if (req.path.startsWith("/app/assets/") && !post) {
    const answer = assetAnswer(req.path.slice("/app/assets/".length));
    if (answer) return answer;
  }
  const cookies = parseCookies(req.cookie);
  if (req.path === "/app/sign-in") return post ? signIn(this, ctx, req, cookies) : signInForm(req, cookies);
  if (req.path === "/app/sign-in/sso" && post) return ssoStart(ctx, req, cookies);
  if (req.path === "/app/sso/complete" && !post) return ssoComplete(this, ctx, req, cookies);

  const who = await this.signedIn(ctx, cookies[SESSION_COOKIE]);
  if (req.path === "/app/sign-out" && post) {
    if (!who || !csrfMatches(who.secret, req.form?._csrf)) return forbidden(who ? { userId: who.caller.id, csrf: csrfToken(who.secret) } : { csrf: "" });
    await this.sessions.deleteOne({ id: who.session.id });
    return redirect("/app/sign-in", [setCookie(SESSION_COOKIE, "", { secure: req.secure, maxAge: 0 })]);
  }
  if (!who) {
    // A form posted without a session cannot be carried across sign-in; a link can.
    if (post) return forbidden({ csrf: "" });
    const query = new URLSearchParams(req.query).toString();
    return redirect(`/app/sign-in?return=${encodeURIComponent(req.path + (query ? `?${query}` : ""))}`);
  }
  const viewer: Viewer = { userId: who.caller.id, csrf: csrfToken(who.secret), theme: themeOf(cookies[THEME_COOKIE]), script: shellScript() };
  if (post && !csrfMatches(who.secret, req.form?._csrf)) return forbidden(viewer);
  // The header's bell: a page still answers when the count cannot be read (no bell count then).
  if (!post) viewer.unread = await unreadOf(this, ctx, who.caller);
  try {
    return await route(this, ctx, req, who.caller, viewer);
  } catch (err) {
    return errorAnswer(this, err, viewer, req.path);
  }
}

/**
 * An answer longer than STREAM_OVER_BYTES goes to the gateway as a stream of its bytes, its status and headers
 * in the call's meta (STREAM_HEAD_META): one transporter message (NATS: 1 MB) cannot carry a long page, such as
 * the preview of a page with thousands of headings.
 */
function streamedIfLong(ctx: Ctx<AppRequest>, answer: AppAnswer): AppAnswer | Readable {
  if (answer.body.length <= STREAM_OVER_BYTES / 4 || Buffer.byteLength(answer.body, "utf8") <= STREAM_OVER_BYTES) return answer;
  (ctx.meta as Record<string, unknown>)[STREAM_HEAD_META] = { status: answer.status, headers: answer.headers };
  return Readable.from(utf8Chunks(Buffer.from(answer.body, "utf8")), { objectMode: false });
}

async function unreadOf(service: AppService, ctx: Ctx<AppRequest>, caller: Caller): Promise<number | undefined> {
  try {
    return (await service.as(ctx, caller, identity.unreadNotifications, {})).unread;
  } catch (err) {
    service.logger.warn({ err: { message: (err as Error)?.message } }, "could not read the unread notifications' count");
    return undefined;
  }
}

/** `/app/notifications`: the list; POST `intent=read` with `notification`, or `intent=read-all`. */
async function notificationsRoute(as: As, req: AppRequest, viewer: Viewer): Promise<AppAnswer> {
  if (req.method === "POST") {
    const form = req.form ?? {};
    if (form.intent === "read-all") await as(identity.markNotificationsRead, {});
    else if (form.intent === "read") {
      const id = form.notification ?? "";
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw badForm("Name the notification to mark read ('notification').");
      await as(identity.markNotificationsRead, { notificationId: id });
    } else throw badForm("Say what to do ('intent': read or read-all).");
    return redirect("/app/notifications");
  }
  const { items, unread } = await as(identity.listNotifications, { limit: 100 });
  return page(200, notificationsPage({ ...viewer, unread }, items, unread, Date.now()));
}

function forbidden(viewer: Viewer): AppAnswer {
  return page(403, messagePage("Forbidden", "This form has expired or did not come from this app. Reload the page and try again.", viewer));
}

function signInForm(req: AppRequest, cookies: Record<string, string>, error?: string, status = 200, ssoError?: string): AppAnswer {
  // The sign-in form's CSRF token is bound to a pre-session cookie (there is no session yet).
  const existing = cookies[PRESESSION_COOKIE];
  const secret = isSecret(existing) ? existing : newSecret();
  const set = secret === existing ? [] : [setCookie(PRESESSION_COOKIE, secret, { secure: req.secure, maxAge: 3600 })];
  const returnTo = localReturnPath(req.form?.return ?? req.query.return);
  const passwordURL = `/sso/sign-in?${new URLSearchParams({ app: ssoBinding(secret), return: returnTo })}`;
  return page(status, signInPage({ csrf: csrfToken(secret), returnTo, error, ssoError, passwordURL, theme: themeOf(cookies[THEME_COOKIE]) }), set);
}

/** Opens a session for the user a token (by its hash) stands for, replacing the browser's previous one, and goes to `returnTo`. */
async function openSession(service: AppService, req: AppRequest, cookies: Record<string, string>, userId: string, tokenHash: string, returnTo: string | undefined): Promise<AppAnswer> {
  // Signing in again replaces the browser's session: the one it held ends.
  const previous = cookies[SESSION_COOKIE];
  if (isSecret(previous)) await service.sessions.deleteOne({ id: sessionHash(previous) });
  const secret = newSecret();
  const now = Date.now();
  await service.sessions.insert({ id: sessionHash(secret), userId, tokenHash, createdAt: new Date(now).toISOString(), expiresAt: now + SESSION_TTL_MS });
  return redirect(localReturnPath(returnTo), [
    setCookie(SESSION_COOKIE, secret, { secure: req.secure, maxAge: Math.floor(SESSION_TTL_MS / 1000) }),
    setCookie(PRESESSION_COOKIE, "", { secure: req.secure, maxAge: 0 }),
  ]);
}

const ORGANIZATION_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * `POST /app/sign-in/sso {_csrf, organization, provider?, return}`: sends the browser to the
 * organization's SAML provider (a choice first when it has several) with the binding of this
 * browser's sign-in cookie and the return path; identity brings it back to `/app/sso/complete`.
 */
async function ssoStart(ctx: Ctx<AppRequest>, req: AppRequest, cookies: Record<string, string>): Promise<AppAnswer> {
  const secret = cookies[PRESESSION_COOKIE];
  if (!isSecret(secret) || !csrfMatches(secret, req.form?._csrf)) return forbidden({ csrf: "" });
  const organizationId = (req.form?.organization ?? "").trim();
  const returnTo = localReturnPath(req.form?.return);
  const none = () => signInForm(req, cookies, undefined, 404, "That organization does not sign in through SSO here (check its id).");
  if (!ORGANIZATION_ID.test(organizationId)) return none();
  const { items } = await call(ctx, identity.ssoSignInProviders, { organizationId });
  const chosen = req.form?.provider ? items.filter((p) => p.id === req.form?.provider) : items;
  if (chosen.length === 0) return none();
  if (chosen.length > 1) return page(200, ssoChoicePage({ csrf: csrfToken(secret), returnTo, organizationId, providers: chosen }));
  const query = new URLSearchParams({ app: ssoBinding(secret), return: returnTo });
  return redirect(`${chosen[0].startPath}?${query}`);
}

/**
 * `GET /app/sso/complete?grant=…`: where identity's assertion consumer sends a sign-in started here.
 * The grant redeems once, within a minute, and only in the browser that started the sign-in.
 */
async function ssoComplete(service: AppService, ctx: Ctx<AppRequest>, req: AppRequest, cookies: Record<string, string>): Promise<AppAnswer> {
  const secret = cookies[PRESESSION_COOKIE];
  const grant = req.query.grant ?? "";
  const refused = () =>
    page(403, messagePage("Sign-in refused", "This sign-in is unknown, used, expired or was started in another browser. Sign in again.", { csrf: "" }));
  if (!isSecret(secret) || !grant || grant.length > 64) return refused();
  let redeemed: identity.RedeemedGrant;
  try {
    redeemed = await call(ctx, identity.redeemSignInGrant, { grant, binding: ssoBinding(secret) });
  } catch (err) {
    if ((err as { code?: unknown }).code === 403) return refused();
    throw err;
  }
  return openSession(service, req, cookies, redeemed.user.id, redeemed.tokenHash, redeemed.returnTo);
}

async function signIn(service: AppService, ctx: Ctx<AppRequest>, req: AppRequest, cookies: Record<string, string>): Promise<AppAnswer> {
  if (!csrfMatches(cookies[PRESESSION_COOKIE], req.form?._csrf)) return forbidden({ csrf: "" });
  const token = (req.form?.token ?? "").trim();
  const caller = TOKEN.test(token)
    ? await call(ctx, identity.authenticate, { tokenHash: hashToken(token) })
    : null;
  if (!caller) return signInForm(req, cookies, "That token is unknown or was revoked.", 401);
  return openSession(service, req, cookies, caller.id, hashToken(token), req.form?.return);
}

function errorAnswer(service: AppService, err: unknown, viewer: Viewer, path: string): AppAnswer {
  if (err instanceof PageError) return page(err.status, messagePage(err.title, err.message, viewer));
  const code = (err as { code?: unknown }).code;
  if (code === 404 || code === 403 || code === 401)
    // What the API would answer this user, as a page: missing and hidden look alike.
    return page(404, messagePage("Not found", "There is nothing here, or you cannot see it.", viewer));
  if (code === 400 || code === 422 || code === 409)
    return page(400, messagePage("That did not work", refusalMessage(err), viewer));
  service.logger.error({ err, path: path.slice(0, 200) }, "an app page failed");
  return page(503, messagePage("This page cannot be shown right now", "Try again in a moment.", viewer));
}


async function route(service: AppService, ctx: Ctx<AppRequest>, req: AppRequest, caller: Caller, viewer: Viewer): Promise<AppAnswer> {
  const segments = segmentsOf(req.path);
  if (!segments) throw notFound();
  const as: As = (target, params) => service.as(ctx, caller, target, params);
  const post = req.method === "POST";
  const [root, id, ...rest] = segments;
  if (root === "app" && id === "notifications" && !rest.length) return notificationsRoute(as, req, viewer);
  // Ctrl/Cmd-K's jump to a space or page (a page without script; JSON for the dialog), and @ suggestions in comment boxes.
  if (root === "app" && id === "jump" && !rest.length && !post) return jumpRoute(as, req, viewer, (space) => currentTree(as, space));
  if (root === "s" && id && rest.length === 2 && rest[0] === "~" && rest[1] === "mentions" && !post) return mentionsRoute(as, req, id, caller.id);
  // Setup and administration (admin.ts): organizations, spaces, collections, sites, invite links, sign-in settings, one's account.
  const administered = await adminRoute(as, req, viewer, caller, segments);
  if (administered) return administered;

  if (root === "app" && id === undefined && !post) {
    const [mine, invites] = await Promise.all([as(orgs.list, { limit: 100 }), as(orgs.listMyInvites, { limit: 100 })]);
    return page(200, orgsPage(viewer, mine.items, invites.items));
  }
  if (root === "app" && id === undefined && post) {
    // The viewer's own invitations: accept (joinOrganizationWithInvite) or decline; anyone else's is the actions' 404.
    const form = req.form ?? {};
    const ref = { organizationId: form.organization ?? "", inviteId: form.invite ?? "" };
    if (!ref.organizationId || !ref.inviteId) throw notFound();
    if (form.intent === "accept-invite") {
      await as(orgs.acceptInvite, ref);
      return redirect(`/o/${encodeURIComponent(ref.organizationId)}`);
    }
    if (form.intent === "decline-invite") {
      await as(orgs.deleteInvite, ref);
      return redirect("/app");
    }
    throw notFound();
  }
  if (root === "o" && id && post) return orgPost(as, req, id, rest);
  // Over a transporter a file travels base64 in one message: the largest that fits (NATS's max_payload).
  const uploadLimit = Math.min(MAX_UPLOAD_BYTES, fileLimitForPayload(transporterMaxPayload(service.broker)) ?? MAX_UPLOAD_BYTES);
  if (root === "o" && id && !post) return orgRoute(as, viewer, id, rest);
  if (root === "s" && id) return spaceRoute(as, req, viewer, id, rest, uploadLimit);
  throw notFound();
}


/** The organization's forms (administrators'; the actions refuse anyone else): invite, change a role, create a team, publish a site. */
async function orgPost(as: As, req: AppRequest, organizationId: string, rest: string[]): Promise<AppAnswer> {
  const form = req.form ?? {};
  const home = `/o/${encodeURIComponent(organizationId)}`;
  const roleOf = (value: string | undefined): RoleOrGuest => {
    if (!value || !ROLES_OFFERED.includes(value)) throw new PageError(400, "That did not work", "Pick one of the roles offered.");
    return value === "guest" ? null : (value as Role);
  };
  if (rest.length === 0 && form.intent === "invite") {
    await as(orgs.invite, { organizationId, emails: [(form.email ?? "").trim()], role: roleOf(form.role) });
    return redirect(home);
  }
  if (rest.length === 0 && form.intent === "role" && form.user) {
    await as(orgs.updateMember, { organizationId, userId: form.user, role: roleOf(form.role) });
    return redirect(home);
  }
  if (rest.length === 0 && form.intent === "remove-member" && form.user) {
    await as(orgs.removeMember, { organizationId, userId: form.user });
    return redirect(home);
  }
  if (rest.length === 2 && rest[0] === "teams") {
    // A team's members (the API's rules: administrators and the team's owners; the page offers the forms to administrators).
    const teamId = rest[1];
    const back = `${home}/teams/${encodeURIComponent(teamId)}`;
    if (form.intent === "rename") {
      const title = (form.title ?? "").trim();
      if (!title || title.length > 64) throw new PageError(400, "That did not work", "A team's name is 1 to 64 characters.");
      await as(orgs.updateTeam, { organizationId, teamId, title });
      return redirect(back);
    }
    if (form.intent === "delete") {
      // The second step: the form's confirm box, ticked (the browser asks for it; a post without it is refused here).
      if (form.confirm !== "yes") throw new PageError(400, "That did not work", "Tick the box confirming that the team is to be deleted.");
      // deleteTeam answers 204 for a team it does not find: check that this one is the organization's first.
      await as(orgs.getTeam, { organizationId, teamId });
      await as(orgs.deleteTeam, { organizationId, teamId });
      return redirect(home);
    }
    const user = (form.user ?? "").trim();
    if (!user) throw new PageError(400, "That did not work", "Pick a member.");
    const teamRole = (value: string | undefined): "owner" | "member" => {
      if (value !== "owner" && value !== "member") throw new PageError(400, "That did not work", "Pick one of the team roles offered.");
      return value;
    };
    if (form.intent === "add-member" || form.intent === "team-role") {
      if (form.intent === "team-role") {
        // Changing a role keeps the member in the team: only someone already in it.
        const listed = await as(orgs.listTeamMembers, { organizationId, teamId, limit: 1000 });
        if (!listed.items.some((m) => m.organization.user.id === user)) throw notFound();
      }
      await as(orgs.addTeamMember, { organizationId, teamId, userId: user, role: teamRole(form.role) });
      return redirect(back);
    }
    if (form.intent === "remove-member") {
      await as(orgs.removeTeamMember, { organizationId, teamId, userId: user });
      return redirect(back);
    }
    throw notFound();
  }
  if (rest.length === 1 && rest[0] === "settings" && form.intent === "merge-rules") {
    const read = mergeRulesOfForm(form);
    if ("error" in read) throw new PageError(400, "That did not work", read.error);
    // The API keeps any id a rule names; the page takes only the organization's members (a typo would block every merge).
    const named = read.rules.type === "rules" ? read.rules.rules.flatMap((r) => ("users" in r ? r.users : [])) : [];
    if (named.length) {
      const members = new Set((await as(orgs.listMembers, { organizationId, limit: 1000 })).items.map((m) => m.user.id));
      const stranger = named.find((u) => !members.has(u));
      if (stranger !== undefined) throw new PageError(400, "That did not work", `${stranger} is not a member of this organization: a merge rule names members by their user id.`);
    }
    await as(orgs.update, { organizationId, mergeRules: read.rules });
    return redirect(`${home}/settings`);
  }
  if (rest.length === 0 && form.intent === "team") {
    await as(orgs.createTeam, { organizationId, title: (form.title ?? "").trim() });
    return redirect(home);
  }
  if (rest.length === 2 && rest[0] === "sites" && (form.intent === "publish" || form.intent === "unpublish")) {
    await as(form.intent === "publish" ? sites.publish : sites.unpublish, { organizationId, siteId: rest[1] });
    return redirect(`${home}/sites/${encodeURIComponent(rest[1])}`);
  }
  throw notFound();
}

async function orgRoute(as: As, viewer: Viewer, organizationId: string, rest: string[]): Promise<AppAnswer> {
  if (rest.length === 1 && rest[0] === "settings") {
    const org = await as(orgs.get, { organizationId });
    const rules = (org.mergeRules as orgs.MergeRules | undefined) ?? { type: "none" };
    const members = org.permissions?.admin ? await as(orgs.listMembers, { organizationId, limit: 1000 }).then((m) => m.items) : undefined;
    return page(200, settingsPage(viewer, org, rules, members));
  }
  const [kind, id, ...more] = rest;
  if (more.length || !id) throw notFound();
  if (kind === "openapi") return page(200, openapiPage(viewer, organizationId, await as(openapi.get, { organizationId, specSlug: id })));
  if (kind === "teams") {
    const [org, team, members] = await Promise.all([
      as(orgs.get, { organizationId }),
      as(orgs.getTeam, { organizationId, teamId: id }),
      as(orgs.listTeamMembers, { organizationId, teamId: id, limit: 1000 }),
    ]);
    const candidates = org.permissions?.admin ? await as(orgs.listMembers, { organizationId, limit: 1000 }).then((m) => m.items) : undefined;
    return page(
      200,
      teamPage(
        viewer,
        organizationId,
        team,
        members.items.map((m) => ({ user: m.organization.user, role: m.team.role })),
        candidates,
      ),
    );
  }
  throw notFound();
}

function rendered(content: PageContent): { id: string; title: string; path: string; html: string } {
  return { id: content.id, title: content.title, path: content.path, html: renderMarkdown(content.markdown ?? "").html };
}

async function spaceRoute(as: As, req: AppRequest, viewer: Viewer, spaceId: string, rest: string[], uploadLimit: number): Promise<AppAnswer> {
  const post = req.method === "POST";
  const space = await as(contentApi.getSpace, { spaceId });
  if (rest[0] !== "~") {
    if (post) {
      if (!rest.length) throw notFound();
      const target = await as(contentApi.getPageByPath, { spaceId, pagePath: rest.join("/"), format: "markdown" });
      await postComment(as, req, spaceThread, { spaceId }, target.id);
      return redirect(`/s/${encodeURIComponent(spaceId)}/${target.path}`);
    }
    // The tree, the page with its comments and the change requests are read at once (each action checks access itself).
    const withComments = async (pagePath: string) => {
      const shownPage = await as(contentApi.getPageByPath, { spaceId, pagePath, format: "markdown" });
      return { content: shownPage, comments: await threadComments(as, spaceThread, { spaceId }, { targetPage: shownPage.id }) };
    };
    // Drafts and open ones: the change requests still in progress.
    const inProgress = Promise.all(["open", "draft"].map((status) => as(changeRequests.list, { spaceId, status, limit: 50 }))).then(
      (lists) => lists.flatMap((l) => l.items).sort((a, b) => b.number - a.number),
      () => [],
    );
    const [pages, asked] = await Promise.all([currentTree(as, space), rest.length ? withComments(rest.join("/")) : undefined]);
    const first = asked ? undefined : firstDocument(pages)?.path;
    const shown = asked ?? (first ? await withComments(first) : undefined);
    const inProgressList = await inProgress;
    const revision = { pages };
    const content = shown?.content;
    const comments = shown?.comments;
    return page(200, spacePage(viewer, space, revision.pages, content && rendered(content), inProgressList, comments, Date.now(), may(space, "edit")));
  }
  const [, kind, ref, ...pagePathParts] = rest;
  if (kind === "changes" && ref === undefined && post) {
    const subject = (req.form?.subject ?? "").trim().slice(0, 200);
    // The API creates drafts; "ready for review" opens it right after (the API's status move draft → open).
    const status = req.form?.status ?? "draft";
    if (status !== "draft" && status !== "open") throw new PageError(400, "That did not work", "status: a new change request is a draft or open.");
    if (!may(space, "edit")) throw new PageError(403, "Forbidden", "Only people who may edit this space can create change requests.");
    const cr = await as(changeRequests.create, subject ? { spaceId, subject } : { spaceId });
    if (status === "open") await as(updateChangeRequest, { spaceId, changeRequestId: cr.id, status: "open" });
    return redirect(`/s/${encodeURIComponent(spaceId)}/~/changes/${cr.number}`);
  }
  if (kind === "changes" && ref && /^[1-9][0-9]{0,8}$/.test(ref)) return changeRequestRoute(as, req, viewer, space, ref, pagePathParts.join("/"), uploadLimit);
  if (kind === "search" && ref === undefined && !post) {
    const query = (req.query.q ?? "").trim().slice(0, 512);
    const [pages, hits] = await Promise.all([
      currentTree(as, space),
      query ? as(contentApi.searchSpaceContent, { spaceId, query, limit: 20 }).then((r) => r.items) : [],
    ]);
    return page(200, searchPage(viewer, space, pages, query, hits));
  }
  if (kind === "files" && ref === undefined && !post) {
    const [pages, files] = await Promise.all([currentTree(as, space), as(contentApi.listFiles, { spaceId, limit: 100 })]);
    return page(200, filesPage(viewer, space, pages, files.items));
  }
  // The space's history (history.ts): its revisions, one revision's pages, two compared, a page restored.
  const inHistory = historyRoute(as, req, viewer, space, kind, ref, pagePathParts);
  if (inHistory) return inHistory;
  throw notFound();
}

async function changeRequestRoute(as: As, req: AppRequest, viewer: Viewer, space: contentApi.SpaceResource, number: string, pagePath: string, uploadLimit: number): Promise<AppAnswer> {
  const spaceId = space.id;
  const cr = await as(changeRequests.get, { spaceId, changeRequestId: number });
  const ref = { spaceId, changeRequestId: cr.id };
  const intent = req.form?.intent;
  if (req.method === "POST" && !pagePath) {
    const back = `/s/${encodeURIComponent(spaceId)}/~/changes/${cr.number}`;
    if (intent === "comment" || intent === "reply") {
      await postComment(as, req, changeRequestThread, ref);
      return redirect(back);
    }
    if (intent === "watch" || intent === "unwatch") {
      await as(changeRequests.setWatch, { ...ref, watching: intent === "watch" });
      return redirect(`${back}#watch`);
    }
    // A page or a page group at the top level (the form's two buttons: `kind` page or group).
    if (intent === "add-page") {
      const kind = req.form?.kind ?? "page";
      if (kind !== "page" && kind !== "group") throw new PageError(400, "That did not work", "kind: add a page or a group.");
      const title = (req.form?.title ?? "").trim().slice(0, 200);
      if (!title) throw new PageError(400, "That did not work", kind === "group" ? "title: a group needs a title." : "title: a page needs a title.");
      const change = { operation: "insert_page", title, document: { markdown: "" }, ...(kind === "group" ? { type: "group" } : {}) };
      await as(changeRequests.updateContent, { ...ref, changes: [change] });
      return redirect(back);
    }
    if (intent === "approve" || intent === "request-changes") {
      await as(changeRequests.submitReview, { ...ref, status: intent === "approve" ? "approved" : "changes-requested" });
      return redirect(back);
    }
    if (intent === "ready" || intent === "to-draft") {
      if (!may(space, "edit")) throw new PageError(403, "Forbidden", "Only people who may edit this space can mark a change request ready for review or back to draft.");
      await as(updateChangeRequest, { ...ref, status: intent === "ready" ? "open" : "draft" });
      return redirect(back);
    }
    if (intent === "merge") {
      if (!may(space, "merge")) throw new PageError(403, "Forbidden", "Only people who may review this space can merge its change requests.");
      // A merge is confirmed by its form's box: a stray post (or click) without it never merges.
      if (req.form?.confirm !== "yes") throw new PageError(400, "Not merged", "confirm: tick “Yes, merge” to merge this change request.");
      // Unmet merge rules are the action's 409, shown with its message; conflicts with the changes page, the conflicting pages page by page.
      try {
        await as(changeRequests.merge, ref);
      } catch (err) {
        const conflicts = (err as { code?: unknown; data?: { conflicts?: unknown } }).data?.conflicts;
        if ((err as { code?: unknown }).code !== 409 || !Array.isArray(conflicts)) throw err;
        return changesView(as, viewer, space, cr, 409, { message: (err as Error).message, items: conflicts as changeRequests.MergeConflict[] });
      }
      return redirect(back);
    }
    throw notFound();
  }
  if (pagePath === "~files") return changeRequestFiles(as, req, viewer, space, cr, uploadLimit);
  if (pagePath === "~pages") return arrange(as, req, viewer, space, cr);
  if (pagePath === "~diff" && req.method !== "POST") return changesView(as, viewer, space, cr, 200, undefined, typeof req.query.page === "string" && req.query.page ? req.query.page : undefined);
  const content = pagePath ? await as(changeRequests.getPageByPath, { ...ref, pagePath, format: "markdown" }) : undefined;
  if (req.method === "POST" && content && intent === "save-document") {
    // With `revision` (the change request's revision the editor last knew), a save made after anything else
    // changed the change request answers 409 with the page as stored, for the editor to merge first (so an edit
    // through the API to this page is never overwritten by an editor that had not seen it).
    const known = req.form?.revision;
    const current = typeof cr.revision === "string" ? cr.revision : undefined;
    if (known && current && known !== current) {
      const stored = await as(changeRequests.getPageByPath, { ...ref, pagePath: content.path, format: "document" });
      return json(409, { error: "The change request changed since the editor last saw it.", revision: current, document: stored.document ?? null });
    }
    return saveDocument(as, ref, content.id, req.form?.document, Boolean(known));
  }
  // The live editor's check for edits made elsewhere (the API, the Markdown editor): the change request's
  // revision, and the page's document when the revision is not the one the editor knew.
  if (req.method !== "POST" && content && req.query.edit === "state") {
    const current = typeof cr.revision === "string" ? cr.revision : null;
    if (current && req.query.revision === current) return json(200, { revision: current });
    const stored = await as(changeRequests.getPageByPath, { ...ref, pagePath: content.path, format: "document" });
    return json(200, { revision: current, document: stored.document ?? null });
  }
  if (req.method === "POST" && content) {
    const markdown = (req.form?.markdown ?? "").replace(/\r\n/g, "\n");
    if (intent === "save") {
      await as(changeRequests.updateContent, { ...ref, changes: [{ operation: "update_page", page: content.id, document: { markdown } }] });
      return redirect(`/s/${encodeURIComponent(spaceId)}/~/changes/${cr.number}/${content.path}`);
    }
    if (intent === "preview") return page(200, editPage(viewer, space, cr, content, markdown, renderMarkdown(markdown).html));
    throw notFound();
  }
  if (content && req.query.edit === "1") return page(200, editPage(viewer, space, cr, content, content.markdown ?? "", undefined));
  if (content && req.query.edit === "blocks") {
    const [{ document }, revision] = await Promise.all([as(changeRequests.getPageByPath, { ...ref, pagePath: content.path, format: "document" }), as(changeRequests.getRevision, ref)]);
    // The link picker's pages: the change request's documents (at most EDITOR_PAGES of them).
    const pages: Array<{ id: string; title: string; path: string }> = [];
    const collect = (list: contentApi.RevisionPageResource[]) => {
      for (const p of list) {
        if (pages.length >= EDITOR_PAGES) return;
        if (p.type === "document") pages.push({ id: p.id, title: p.title, path: p.path });
        collect(p.pages ?? []);
      }
    };
    collect(revision.pages);
    const live = { url: `/app/collab/${encodeURIComponent(spaceId)}/${cr.number}/${content.path}`, revision: typeof cr.revision === "string" ? cr.revision : "" };
    return scriptPage(200, blockEditorPage(viewer, space, cr, content, document ?? { object: "document", data: {}, nodes: [] }, pages, editorAssets(), live));
  }
  const [revision, shown, reviews, main, watch] = await Promise.all([
    as(changeRequests.getRevision, ref),
    threadComments(as, changeRequestThread, ref, {}),
    as(changeRequests.listReviews, { ...ref, limit: 50 }).then((l) => l.items, () => []),
    // The same path on main, for the page's diff (none: a new page).
    content
      ? as(contentApi.getPageByPath, { spaceId, pagePath: content.path, format: "markdown" }).catch((err: unknown) => {
          if ((err as { code?: unknown }).code === 404) return null;
          throw err;
        })
      : undefined,
    // Only members of the space's organization watch (404 for others): no form for them. The page still
    // answers when the watch state cannot be read (as the bell's count), without the form.
    as(changeRequests.getWatch, ref).catch(() => undefined),
  ]);
  const diff = content
    ? main === null || main === undefined
      ? "new"
      : (await compareOffThread(sharedWorkerPool(), [{ before: main.markdown ?? "", after: content.markdown ?? "" }], requestBudget(), PAGE_LIMITS))[0].diff
    : undefined;
  const diffLink = content ? `/s/${encodeURIComponent(spaceId)}/~/changes/${cr.number}/~diff?page=${encodeURIComponent(content.id)}` : undefined;
  return page(200, changeRequestPage(viewer, space, cr, revision.pages, content && rendered(content), shown, reviews, diff, diffLink, Date.now(), { edit: may(space, "edit"), merge: may(space, "merge") }, watch));
}

/**
 * The block editor's save (`intent: save-document`, `document`: the page's GitBook JSON document): one
 * `update_page` as the user, answered in JSON for the editor's script: 200 `{saved: true}`; a document
 * that is not JSON or not a document, or that the API refuses, 400 `{error}` naming the field; the
 * action's other refusals as any page's (404 for a reader or another organization's change request).
 */
async function saveDocument(as: As, ref: { spaceId: string; changeRequestId: string }, pageId: string, raw: string | undefined, withRevision = false): Promise<AppAnswer> {
  let document: unknown;
  try {
    document = JSON.parse(raw ?? "");
  } catch {
    return json(400, { error: "'document' must be a JSON document." });
  }
  try {
    checkDocument(document);
  } catch (err) {
    if (err instanceof DocumentError) return json(400, { error: err.message });
    throw err;
  }
  try {
    const answer = (await as(changeRequests.updateContent, { ...ref, changes: [{ operation: "update_page", page: pageId, document: { document } }] })) as { revision?: unknown } | null;
    return json(200, withRevision && typeof answer?.revision === "string" ? { saved: true, revision: answer.revision } : { saved: true });
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 400 || code === 422) return json(400, { error: (err as Error).message });
    throw err;
  }
}

/** A file name as the API takes it: no path separators or NUL, at most 256 characters (a browser may send a path). */
function uploadName(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? "";
  return base.replace(/[\u0000-\u001f\u007f]/g, "").trim().slice(0, 256);
}

const CONTENT_TYPE = /^[\w.+-]+\/[\w.+-]+$/;

/**
 * `…/changes/{n}/~files`: the change request's files; a POST (multipart, intent `upload`) adds the
 * form's file with `insert_files`, the API's way, as the user: at most 1 MB, the API's limit.
 */
async function changeRequestFiles(as: As, req: AppRequest, viewer: Viewer, space: SpaceView, cr: ChangeRequestView, uploadLimit: number): Promise<AppAnswer> {
  const ref = { spaceId: space.id, changeRequestId: cr.id };
  const show = async (status: number, error?: string) => {
    const [revision, files] = await Promise.all([as(changeRequests.getRevision, ref), as(changeRequests.listFiles, { ...ref, limit: 100 })]);
    return page(status, changeRequestFilesPage(viewer, space, cr, revision.pages, files.items, error));
  };
  if (req.method !== "POST") return show(200);
  if (req.form?.intent !== "upload") throw notFound();
  // The block editor uploads a pasted or dropped image with `reply: json`: the same checks, answered in JSON.
  const asJson = req.form?.reply === "json";
  const refuse = (status: number, message: string) => (asJson ? json(status, { error: message }) : show(status, message));
  const upload = req.upload;
  if (!upload) return refuse(400, "Pick a file to upload.");
  const size = upload.omitted ? (upload.size ?? 0) : Buffer.byteLength(upload.base64, "base64");
  if (upload.omitted || size > uploadLimit) return refuse(413, `That file is too large: ${size} bytes; a file is at most ${uploadLimit} bytes (${describeBytes(uploadLimit)}) here.`);
  const name = uploadName(upload.name);
  if (!name) return refuse(400, "That file has no usable name.");
  const contentType = CONTENT_TYPE.test(upload.contentType) && upload.contentType.length <= 255 ? upload.contentType : "application/octet-stream";
  const answer = (await as(changeRequests.updateContent, { ...ref, compat: !asJson, changes: [{ operation: "insert_files", files: [{ name, contentType, base64: upload.base64 }] }] })) as {
    insertedFiles?: Array<{ id: string; name?: string; contentType?: string }>;
  };
  if (asJson) {
    const file = answer.insertedFiles?.[0];
    if (!file) throw new Error("the upload answered no inserted file");
    return json(200, { file: { id: file.id, name: file.name ?? name, contentType: file.contentType ?? contentType } });
  }
  return redirect(`/s/${encodeURIComponent(space.id)}/~/changes/${cr.number}/~files`);
}

/** The comment actions of a thread: a space's (`ref` is the space) or a change request's. */
interface Thread<Ref> {
  list: Action<Ref & comments.CommentListParams, contentApi.Listed<comments.PostedComment>>;
  listReplies: Action<Ref & comments.ReplyParams, contentApi.Listed<comments.PostedReply>>;
  post: Action<Ref & comments.PostComment, comments.PostedComment>;
  postReply: Action<Ref & { commentId: string; body: { markdown: string } }, comments.PostedReply>;
}

const spaceThread: Thread<comments.SpaceThread> = { list: comments.list, listReplies: comments.listReplies, post: comments.post, postReply: comments.postReply };
const changeRequestThread: Thread<comments.ChangeRequestThread> = {
  list: comments.listInChangeRequest,
  listReplies: comments.listRepliesInChangeRequest,
  post: comments.postInChangeRequest,
  postReply: comments.postReplyInChangeRequest,
};

/** A thread's comments with their replies, rendered. */
async function threadComments<Ref>(as: As, thread: Thread<Ref>, ref: Ref, filter: comments.CommentListParams): Promise<ShownComment[]> {
  const listed = await as(thread.list, { ...ref, ...filter, format: "markdown", limit: 50 }).then((l) => l.items, () => []);
  return Promise.all(
    listed.map(async (c) => {
      const replies = c.replies
        ? await as(thread.listReplies, { ...ref, commentId: c.id, format: "markdown", limit: 50 }).then((l) => l.items, () => [])
        : [];
      return { ...c, html: renderMarkdown(c.body?.markdown ?? "").html, replyList: replies.map((r) => ({ ...r, html: renderMarkdown(r.body?.markdown ?? "").html })) };
    }),
  );
}

/** Posts the form's comment (intent `comment`, on `page` when given) or reply (intent `reply` to `comment`). */
async function postComment<Ref>(as: As, req: AppRequest, thread: Thread<Ref>, ref: Ref, page?: string): Promise<void> {
  const markdown = (req.form?.markdown ?? "").trim();
  if (!markdown) throw new PageError(400, "That did not work", "A comment needs some text.");
  if (req.form?.intent === "reply") {
    const commentId = req.form?.comment ?? "";
    if (!commentId) throw notFound();
    await as(thread.postReply, { ...ref, commentId, body: { markdown } });
  } else if (req.form?.intent === "comment") {
    await as(thread.post, page ? { ...ref, page, body: { markdown } } : { ...ref, body: { markdown } });
  } else throw notFound();
}

/** A byte count as people read it: 1 MB, 744 KB. */
function describeBytes(bytes: number): string {
  return bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${Math.floor(bytes / 1024)} KB`;
}

/**
 * `…/changes/{n}/~pages`: the change request's pages with their moves; a POST moves one page a step
 * (`update_page` with GitBook's `into`/`at`) or adds a page under another (`insert_page` with `into`).
 */
async function arrange(as: As, req: AppRequest, viewer: Viewer, space: contentApi.SpaceResource, cr: ChangeRequestView): Promise<AppAnswer> {
  const ref = { spaceId: space.id, changeRequestId: cr.id };
  const canEdit = (space.permissions as { edit?: unknown } | undefined)?.edit === true;
  const back = `/s/${encodeURIComponent(space.id)}/~/changes/${cr.number}/~pages`;
  const revision = await as(changeRequests.getRevision, ref);
  if (req.method !== "POST") {
    // After a delete: the page as it was, to undo it (unless it is back already).
    const gone = canEdit ? await deletedPage(as, space.id, req.query.deleted, req.query.from) : undefined;
    return page(200, arrangePage(viewer, space, cr, revision.pages, canEdit, undefined, gone && !placeOf(revision.pages, gone.id) ? gone : undefined));
  }
  // A reader's post is refused before any of its fields is looked at.
  if (!canEdit) throw new PageError(403, "Forbidden", "Only people who may edit this space arrange its pages.");
  const form = req.form ?? {};
  const refuse = (message: string) => page(400, arrangePage(viewer, space, cr, revision.pages, canEdit, message));
  // A page dragged onto another in the tree (the tree's script), before, after or inside it.
  if (form.intent === "place") {
    const position = form.position as Position;
    if (!POSITIONS.includes(position)) return refuse("position: pick before, after or inside.");
    if (!form.page || !placeOf(revision.pages, form.page) || !form.target || !placeOf(revision.pages, form.target)) throw notFound();
    const change = placeChange(revision.pages, form.page, form.target, position);
    if (!change) return refuse("That page cannot go there.");
    await as(changeRequests.updateContent, { ...ref, changes: [change] });
    return redirect(back);
  }
  if (form.intent === "rename") {
    const title = (form.title ?? "").trim();
    if (!title) return refuse("title: a page needs a title.");
    if (title.length > 200) return refuse("title: at most 200 characters.");
    if (!form.page || !placeOf(revision.pages, form.page)) throw notFound();
    await as(changeRequests.updateContent, { ...ref, changes: [{ operation: "update_page", page: form.page, title }] });
    return redirect(back);
  }
  // Deleting a page (and its subpages): the next page offers to undo it, from the revision before the delete.
  if (form.intent === "delete") {
    if (!form.page || !placeOf(revision.pages, form.page)) throw notFound();
    const before = (cr as { revision?: unknown }).revision;
    await as(changeRequests.updateContent, { ...ref, changes: [{ operation: "delete_page", page: form.page }] });
    return redirect(typeof before === "string" ? `${back}?deleted=${encodeURIComponent(form.page)}&from=${encodeURIComponent(before)}` : back);
  }
  // Undoing a delete: the page and its subpages as they were in `revision` (revert_page, parents first), at their places.
  if (form.intent === "restore") {
    const gone = await deletedPage(as, space.id, form.page, form.revision);
    if (!gone) return refuse("That page cannot be brought back from there.");
    if (placeOf(revision.pages, gone.id)) return refuse("That page is already there.");
    if (gone.ids.length > MAX_RESTORED) return refuse(`At most ${MAX_RESTORED} pages are brought back at once.`);
    await as(changeRequests.updateContent, { ...ref, changes: gone.ids.map((id) => ({ operation: "revert_page", page: id, revision: gone.revision })) });
    return redirect(back);
  }
  if (form.intent === "move") {
    const direction = form.direction as Direction;
    if (!DIRECTIONS.includes(direction)) return refuse("Pick a direction: up, down, nest or un-nest.");
    if (!form.page || !placeOf(revision.pages, form.page)) throw notFound();
    const change = moveChange(revision.pages, form.page, direction);
    if (!change) return refuse("That page cannot move that way.");
    await as(changeRequests.updateContent, { ...ref, changes: [change] });
    return redirect(back);
  }
  // Adding a page, or a page group (the form's two buttons: `kind` page or group; a group goes at the top level).
  if (form.intent === "add-page") {
    const kind = form.kind ?? "page";
    if (kind !== "page" && kind !== "group") return refuse("kind: add a page or a group.");
    const title = (form.title ?? "").trim().slice(0, 200);
    if (!title) return refuse(kind === "group" ? "A group needs a title." : "A page needs a title.");
    const parent = form.parent ?? "";
    if (parent && !placeOf(revision.pages, parent)) return refuse("Pick a page of this change request to put it under.");
    if (parent && kind === "group") return refuse("parent: a group stays at the top level; pick “the top level”.");
    const change = kind === "group" ? { operation: "insert_page", type: "group", title, document: { markdown: "" } } : { operation: "insert_page", title, document: { markdown: "" }, ...(parent ? { into: parent } : {}) };
    await as(changeRequests.updateContent, { ...ref, changes: [change] });
    return redirect(back);
  }
  throw notFound();
}

/** The most pages an undone delete brings back (the API's changes per edit). */
const MAX_RESTORED = 50;

/**
 * A page deleted from a change request, as it was in `revisionId` (the change request's revision before the
 * delete): its title and its subtree's ids; undefined when either is missing or not a page of that revision.
 */
async function deletedPage(as: As, spaceId: string, pageId: unknown, revisionId: unknown): Promise<{ id: string; title: string; revision: string; ids: string[] } | undefined> {
  if (typeof pageId !== "string" || typeof revisionId !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(pageId) || !/^[A-Za-z0-9_-]{1,64}$/.test(revisionId)) return undefined;
  const before = await as(contentApi.getRevision, { spaceId, revisionId }).catch((err: unknown) => {
    const code = (err as { code?: unknown }).code;
    if (code === 400 || code === 404) return undefined;
    throw err;
  });
  const place = before && placeOf(before.pages, pageId);
  if (!before || !place) return undefined;
  return { id: pageId, title: place.siblings[place.index].title, revision: revisionId, ids: subtreeIds(before.pages, pageId) };
}

/** Pages whose content is read and diffed on one changes page; the others are listed with what changed and a link to their own diff. */
const MAX_DIFFED_PAGES = 20;

/** Diffs of pages between two revisions, shared by every changes page of this node (see DiffCache). */
const diffCache = new DiffCache();

/** A page's diff still to compute: its two texts being read, and its key in `diffCache`. */
interface PendingDiff {
  key: string;
  texts: Promise<[string, string]>;
}

const isPending = (d: PageDiff | PendingDiff | undefined): d is PendingDiff => d !== undefined && "texts" in d;

/**
 * The diffs of a changes page: the pending ones' texts read (every read awaited in one Promise.all, none left
 * without a handler if another fails), then compared together on a worker thread (`compareOffThread`),
 * drawing on `budget` in order; the deterministic ones kept in `diffCache`.
 */
async function diffsOf(wanted: Array<PageDiff | PendingDiff | undefined>, budget: DiffBudget, limits: DiffLimits): Promise<Array<PageDiff | undefined>> {
  const pending = wanted.filter(isPending);
  const texts = await Promise.all(pending.map((d) => d.texts));
  const results = await compareOffThread(sharedWorkerPool(), texts.map(([before, after]) => ({ before, after })), budget, limits);
  pending.forEach((d, i) => {
    if (results[i].deterministic) diffCache.set(d.key, results[i].diff);
  });
  return wanted.map((d) => (isPending(d) ? results[pending.indexOf(d)].diff : d));
}



/**
 * `…/changes/{n}/~diff`: the change request's changed pages against its base (getChangeRequestChanges),
 * each with its line diff; when main moved on since that base, the pages changed on both sides that do
 * not agree, each with both sides' diffs. `refused`: a merge's 409 and the conflicts it named. `only`:
 * one page's diffs (`?page=`), with the larger SINGLE_PAGE_LIMITS. The diffing of one request is
 * bounded (`requestBudget`, see diff.ts); diffs are kept by revisions and page in `diffCache`.
 */
async function changesView(
  as: As,
  viewer: Viewer,
  space: contentApi.SpaceResource,
  cr: changeRequests.ChangeRequestResource,
  status: number,
  refused?: { message: string; items: changeRequests.MergeConflict[] },
  only?: string,
): Promise<AppAnswer> {
  const ref = { spaceId: space.id, changeRequestId: cr.id };
  const base = typeof cr.revisionMergedAncestor === "string" ? cr.revisionMergedAncestor : String(cr.revisionInitial);
  const head = String(cr.revision);
  const outdated = cr.outdated === true;
  const [revision, listed, main] = await Promise.all([
    as(changeRequests.getRevision, ref),
    as(changeRequests.listChanges, { ...ref, limit: 1000 }),
    // Main's changes since the base: read only after the change request answered the user.
    outdated ? as(contentApi.semanticChangesBetween, { spaceId: space.id, from: base, to: space.revision, limit: 1000 }) : undefined,
  ]);
  const all = pageChanges(listed.changes);
  const ours = only ? all.filter((p) => p.id === only) : all;
  if (only && !ours.length) throw notFound();
  const found = main ? pageConflicts(ours, pageChanges(main.changes)) : undefined;
  const limits = only ? SINGLE_PAGE_LIMITS : PAGE_LIMITS;
  const budget = only ? { pages: 2, lines: 2 * 2 * SINGLE_PAGE_LIMITS.maxLines, ms: 300 } : requestBudget();
  // The first MAX_DIFFED_PAGES content changes (conflicts first) are read; the others link to their own diff.
  let reads = only ? 2 : MAX_DIFFED_PAGES;
  const diffOf = (p: PageChanges, to: string): PageDiff | PendingDiff | undefined => {
    if (!contentChanged(p)) return undefined;
    // Revisions never change: a diff between two of them is kept (the user's reads above were allowed).
    const key = [space.id, base, to, p.id, limits.maxLines, limits.maxEdits].join("\u0000");
    const kept = diffCache.get(key);
    if (kept) return kept;
    if (reads-- <= 0) return { tooLarge: true };
    return {
      key,
      texts: Promise.all([p.kinds.includes("added") ? "" : markdownIn(as, space.id, base, p.id), p.kinds.includes("removed") ? "" : markdownIn(as, space.id, to, p.id)]),
    };
  };
  const conflictCount = 2 * (found?.length ?? 0);
  const diffs = await diffsOf([...(found ?? []).flatMap((c) => [diffOf(c.ours, head), diffOf(c.theirs, space.revision)]), ...ours.map((p) => diffOf(p, head))], budget, limits);
  const forConflicts = diffs.slice(0, conflictCount);
  const forPages = diffs.slice(conflictCount);
  const pages: ShownPageChange[] = ours.map((p, i) => ({ ...p, diff: forPages[i] }));
  const conflicts: ShownConflict[] | undefined = found?.map((c, i) => ({ ...c, oursDiff: forConflicts[2 * i], theirsDiff: forConflicts[2 * i + 1] }));
  return page(status, changesPage(viewer, space, { ...cr, outdated }, revision.pages, pages, only ? 0 : listed.more, conflicts, refused, only));
}
