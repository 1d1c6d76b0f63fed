// Setup and administration in the browser: organizations, spaces, collections and sites created, renamed,
// moved and deleted; a site's settings, look, spaces, share links and redirects; invite links; the
// organization's sign-in settings; one's own password, API tokens and sessions. Every form calls the API's
// action as the signed-in user, so the API's rules decide (a refusal is the page of its status).
import type { Caller, Role, RoleOrGuest } from "@docshelf/access";
import type { Action } from "@docshelf/contracts/action";
import * as contentApi from "@docshelf/contracts/content";
import * as identity from "@docshelf/contracts/identity";
import { NOTIFICATION_KINDS } from "@docshelf/contracts/identity";
import * as orgs from "@docshelf/contracts/orgs";
import * as sites from "@docshelf/contracts/sites";
import { page, redirect, type AppAnswer, type AppRequest } from "./http";
import type { Viewer } from "./pages/layout";
import { collectionPage, orgPage } from "./pages/org";
import { accountPage, joinPage, siteSettingsPage, spaceSettingsPage, ssoSettingsPage, type AccountView } from "./pages/admin";
import { badForm, notFound } from "./page-error";
import { looksOf, withLooks } from "./site-looks";
import { THEMES, themeCookie, type ThemeChoice } from "./theme";
import { listSections, sectionForm } from "./site-sections";

/** Calls an action as the signed-in user. */
export type As = <P, R>(target: Action<P, R>, params: P) => Promise<R>;

const ROLES = ["admin", "create", "review", "edit", "comment", "read", "guest"];
const ID = /^[A-Za-z0-9_-]{1,64}$/;
const BASENAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A trimmed text field, refused (400 naming it) when longer than `max` or shorter than `min`. */
function text(form: Record<string, string>, field: string, label: string, min: number, max: number): string {
  const value = (form[field] ?? "").trim();
  if (value.length < min || value.length > max)
    throw badForm(min > 0 ? `${label} ('${field}') is ${min} to ${max} characters.` : `${label} ('${field}') is at most ${max} characters.`);
  return value;
}

/** A field naming something by its id (a select's value or a hidden field): a malformed one is 404. */
function idOf(form: Record<string, string>, field: string): string {
  const value = form[field] ?? "";
  if (!ID.test(value)) throw notFound();
  return value;
}

function roleOf(value: string | undefined): RoleOrGuest {
  if (!value || !ROLES.includes(value)) throw badForm("Pick one of the roles offered ('role').");
  return value === "guest" ? null : (value as Role);
}

/** Requires the ticked confirm box of a destructive form's second step. */
function confirmed(form: Record<string, string>, what: string): void {
  if (form.confirm !== "yes") throw badForm(`Tick the box confirming that ${what} is to be deleted ('confirm').`);
}

/** This instance's public URL, from an organization's app link (`{publicUrl}/o/{id}`). */
function baseOf(org: orgs.OrganizationResource): string {
  const app = (org.urls as { app?: unknown } | undefined)?.app;
  const suffix = `/o/${org.id}`;
  return typeof app === "string" && app.endsWith(suffix) ? app.slice(0, -suffix.length) : "";
}

/** The administration page of the path, or undefined when it is another page's. */
export async function adminRoute(as: As, req: AppRequest, viewer: Viewer, caller: Caller, segments: string[]): Promise<AppAnswer | undefined> {
  const post = req.method === "POST";
  const form = req.form ?? {};
  const [root, id, ...rest] = segments;
  if (root === "app") {
    if (id === undefined && post && form.intent === "create-org") {
      const org = await as(orgs.create, { title: text(form, "title", "An organization's name", 2, 255) });
      return redirect(`/o/${encodeURIComponent(org.id)}`);
    }
    if (id === "account" && !rest.length) return account(as, req, viewer, caller);
    if (id === "join" && rest.length === 2) {
      const [organizationId, inviteId] = rest;
      if (!ID.test(organizationId) || !ID.test(inviteId)) throw notFound();
      if (!post) return page(200, joinPage(viewer, organizationId, inviteId));
      if (form.intent !== "join") throw notFound();
      await as(orgs.acceptInvite, { organizationId, inviteId });
      return redirect(`/o/${encodeURIComponent(organizationId)}`);
    }
    return undefined;
  }
  if (root === "o" && id) {
    if (!rest.length) return post ? orgForms(as, form, id) : orgHome(as, viewer, id);
    if (rest.length === 1 && rest[0] === "settings" && post && form.intent === "rename") {
      await as(orgs.update, { organizationId: id, title: text(form, "title", "An organization's name", 2, 255) });
      return redirect(`/o/${encodeURIComponent(id)}/settings`);
    }
    if (rest.length === 1 && rest[0] === "sso") return ssoSettings(as, req, viewer, id);
    if (rest.length === 2 && rest[0] === "c") return collection(as, req, viewer, id, rest[1]);
    if (rest.length === 2 && rest[0] === "sites" && !(post && (form.intent === "publish" || form.intent === "unpublish"))) return site(as, req, viewer, id, rest[1]);
    return undefined;
  }
  if (root === "s" && id && rest.length === 2 && rest[0] === "~" && rest[1] === "settings") return spaceSettings(as, req, viewer, id);
  return undefined;
}

/** `/o/{org}`: spaces, collections, sites with their create forms; members, teams, invitations and invite links for admins. */
async function orgHome(as: As, viewer: Viewer, organizationId: string): Promise<AppAnswer> {
  const org = await as(orgs.get, { organizationId });
  const admin = org.permissions?.admin === true;
  const none = { items: [] };
  const [spaces, collections, siteList, members, teams, links, pending] = await Promise.all([
    as(contentApi.listSpaces, { organizationId, limit: 100 }),
    as(orgs.listCollections, { organizationId, limit: 100 }).catch(() => none),
    as(sites.list, { organizationId, limit: 100 }).catch(() => none),
    admin ? as(orgs.listMembers, { organizationId, limit: 100 }).then((m) => m.items) : undefined,
    admin ? as(orgs.listTeams, { organizationId, limit: 100 }).then((t) => t.items, () => []) : undefined,
    admin ? as(orgs.listLinkInvites, { organizationId, limit: 100 }).then((l) => l.items, () => []) : undefined,
    admin ? as(orgs.listInvites, { organizationId, limit: 100 }).then((l) => l.items, () => []) : undefined,
  ]);
  const base = baseOf(org);
  const o = encodeURIComponent(organizationId);
  return page(
    200,
    orgPage(viewer, org, {
      spaces: spaces.items,
      collections: collections.items,
      sites: siteList.items,
      members,
      teams,
      can: { createSpace: org.permissions?.createContent === true, admin },
      linkInvites: links?.map((l) => ({ id: l.id, role: l.role, url: `${base}/app/join/${o}/${encodeURIComponent(l.id)}` })),
      pendingInvites: pending?.map((i) => ({ id: i.id, email: i.email, role: i.role })),
    }),
  );
}

/** The organization page's create forms and invite links; undefined for the forms serve.actions handles (members, teams). */
async function orgForms(as: As, form: Record<string, string>, organizationId: string): Promise<AppAnswer | undefined> {
  const home = `/o/${encodeURIComponent(organizationId)}`;
  switch (form.intent) {
    case "create-space": {
      const title = text(form, "title", "A space's title", 1, 50);
      const parent = form.collection ? idOf(form, "collection") : undefined;
      const space = await as(contentApi.createSpace, parent ? { organizationId, title, parent } : { organizationId, title });
      return redirect(`/s/${encodeURIComponent(space.id)}`);
    }
    case "create-collection": {
      const collection = await as(orgs.createCollection, { organizationId, title: text(form, "title", "A collection's title", 1, 50) });
      return redirect(`${home}/c/${encodeURIComponent(collection.id)}`);
    }
    case "create-site": {
      const title = text(form, "title", "A site's title", 2, 128);
      const spaces = form.space ? [idOf(form, "space")] : [];
      const created = await as(sites.create, { organizationId, title, spaces });
      return redirect(`${home}/sites/${encodeURIComponent(created.id)}`);
    }
    case "create-link-invite": {
      const role = roleOf(form.role);
      // A link works only while the organization takes invite links: creating one switches them on.
      const org = await as(orgs.get, { organizationId });
      if (org.permissions?.admin && org.inviteLinks !== true) await as(orgs.update, { organizationId, inviteLinks: true });
      await as(orgs.createLinkInvite, { organizationId, role });
      return redirect(home);
    }
    case "delete-link-invite":
      await as(orgs.deleteLinkInvite, { organizationId, inviteId: idOf(form, "invite") });
      return redirect(home);
    case "revoke-invite":
      await as(orgs.deleteInvite, { organizationId, inviteId: idOf(form, "invite") });
      return redirect(home);
    default:
      return undefined;
  }
}

/** `/app/account`: change the password, create (shown once) and revoke API tokens, revoke sessions. */
async function account(as: As, req: AppRequest, viewer: Viewer, caller: Caller): Promise<AppAnswer> {
  const form = req.form ?? {};
  const show = async (status: number, extra: Partial<AccountView> = {}) => {
    const [tokens, sessions, users, settings] = await Promise.all([
      as(identity.listTokens, {}),
      as(identity.listSessions, {}),
      as(identity.getMany, { ids: [caller.id] }),
      as(identity.getNotificationSettings, {}),
    ]);
    return page(status, accountPage(viewer, { email: users[caller.id]?.email ?? "", tokens: tokens.items, sessions: sessions.items, notifyByEmail: settings.email, emailKinds: settings.emailKinds, theme: viewer.theme ?? "system", ...extra }));
  };
  if (req.method !== "POST") return show(200);
  const back = "/app/account";
  switch (form.intent) {
    case "password": {
      const password = form.password ?? "";
      if (password !== (form.confirm ?? "")) return show(400, { error: "The new password and its confirmation ('confirm') differ." });
      try {
        await as(identity.setPassword, form.currentPassword ? { password, currentPassword: form.currentPassword } : { password });
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        if (code === 400 || code === 422 || code === 403) {
          const message = (err as Error).message || "";
          // The API names its fields currentPassword and password; the form's labels say the same.
          return show(400, { error: /currentPassword/.test(message) ? `The current password ('currentPassword'): ${message.replace(/^currentPassword /, "")}` : `The new password ('password'): ${message}` });
        }
        throw err;
      }
      return show(200, { notice: "Your password was changed." });
    }
    case "create-token": {
      const label = text(form, "label", "A token's label", 0, 100);
      const created = await as(identity.createToken, label ? { userId: caller.id, label } : { userId: caller.id });
      return show(201, { created: { ...created, label: label || undefined } });
    }
    case "revoke-token": {
      const tokenId = idOf(form, "token");
      // revokeToken answers 204 for any id: the token must be one of the caller's listed API tokens.
      const { items } = await as(identity.listTokens, {});
      if (!items.some((t) => t.id === tokenId)) throw notFound();
      await as(identity.revokeToken, { userId: caller.id, tokenId });
      return redirect(back);
    }
    case "notifications": {
      const email = form.email;
      if (email !== "on" && email !== "off") throw badForm("Choose whether notifications are emailed ('email': on or off).");
      await as(identity.setNotificationSettings, { email: email === "on" });
      return show(200, { notice: email === "on" ? "Notifications are emailed to you." : "Notifications are no longer emailed to you." });
    }
    case "email-kinds": {
      // A ticked box sends `kind-{kind}=on`; an unticked one sends nothing: that kind is not emailed.
      const emailKinds = Object.fromEntries(
        NOTIFICATION_KINDS.map((kind) => {
          const value = form[`kind-${kind}`];
          if (value !== undefined && value !== "on") throw badForm(`Tick or clear the box ('kind-${kind}').`);
          return [kind, value === "on"];
        }),
      ) as Record<identity.NotificationKind, boolean>;
      await as(identity.setNotificationSettings, { emailKinds });
      return show(200, { notice: "Your email choices were saved." });
    }
    case "revoke-session":
      await as(identity.revokeSession, { sessionId: idOf(form, "session") });
      return redirect(back);
    case "theme": {
      // Remembered in this browser (a cookie every page reads), not in the account: each device chooses.
      const theme = form.theme as ThemeChoice;
      if (!THEMES.includes(theme)) throw badForm("Choose the colours: the system's, light or dark ('theme': system, light or dark).");
      return redirect(`${back}#appearance`, [themeCookie(theme, req.secure)]);
    }
    default:
      throw notFound();
  }
}

/** `/o/{org}/c/{collection}`: the collection and its spaces; administrators rename and delete it. */
async function collection(as: As, req: AppRequest, viewer: Viewer, organizationId: string, collectionId: string): Promise<AppAnswer> {
  const found = await as(orgs.getCollection, { collectionId });
  if (found.organization !== organizationId) throw notFound();
  const form = req.form ?? {};
  if (req.method === "POST") {
    if (form.intent === "rename") {
      const title = text(form, "title", "A collection's title", 1, 50);
      const description = text(form, "description", "A collection's description", 0, 100);
      await as(orgs.updateCollection, { collectionId, title, description });
      return redirect(`/o/${encodeURIComponent(organizationId)}/c/${encodeURIComponent(collectionId)}`);
    }
    if (form.intent === "delete") {
      confirmed(form, "the collection");
      await as(orgs.deleteCollection, { collectionId });
      return redirect(`/o/${encodeURIComponent(organizationId)}`);
    }
    throw notFound();
  }
  const [org, spaces] = await Promise.all([as(orgs.get, { organizationId }), as(contentApi.listSpacesInCollection, { collectionId, limit: 100 })]);
  return page(200, collectionPage(viewer, organizationId, found, spaces.items, org.permissions?.admin === true));
}

/** `/s/{space}/~/settings`: rename, move into a collection or out of one, delete. */
async function spaceSettings(as: As, req: AppRequest, viewer: Viewer, spaceId: string): Promise<AppAnswer> {
  const space = await as(contentApi.getSpace, { spaceId });
  const organizationId = space.organization;
  const form = req.form ?? {};
  const here = `/s/${encodeURIComponent(spaceId)}/~/settings`;
  if (req.method === "POST") {
    if (form.intent === "rename") {
      const title = text(form, "title", "A space's title", 1, 50);
      const emoji = text(form, "emoji", "A space's emoji", 0, 50);
      await as(contentApi.updateSpace, { spaceId, title, emoji: emoji || null });
      return redirect(here);
    }
    if (form.intent === "move") {
      const parent = form.parent ? idOf(form, "parent") : null;
      await as(contentApi.moveSpace, { spaceId, parent });
      return redirect(here);
    }
    if (form.intent === "delete") {
      confirmed(form, "the space");
      await as(contentApi.deleteSpace, { spaceId });
      return redirect(`/o/${encodeURIComponent(organizationId)}`);
    }
    throw notFound();
  }
  const collections = await as(orgs.listCollections, { organizationId, limit: 100 }).then((c) => c.items, () => []);
  const parent = typeof space.parent === "string" ? space.parent : undefined;
  return page(200, spaceSettingsPage(viewer, { space: { id: space.id, title: space.title, emoji: typeof space.emoji === "string" ? space.emoji : undefined, organization: organizationId, parent }, collections }));
}

/**
 * A redirect's destination as typed: an http(s) address, or the path of a page (`/new/page`) in one of the
 * site's spaces (`spaceId`: the form's choice, else the site's first space; GitBook's `{kind: path}`).
 */
function destinationOf(value: string, spaceId: string | undefined): sites.RedirectDestinationInput {
  if (/^https?:\/\//i.test(value)) return { kind: "external", url: value };
  if (!value.startsWith("/")) throw badForm("A redirect goes to the path of a page such as /new/page, or to an https:// address ('destination').");
  if (!spaceId) throw badForm("A redirect to a page needs a space in the site: add one first ('destination').");
  return { kind: "path", spaceId, path: value };
}

/** `/o/{org}/sites/{site}`: the site with every setting; the forms for those who may change it (the create role). */
async function site(as: As, req: AppRequest, viewer: Viewer, organizationId: string, siteId: string): Promise<AppAnswer> {
  const ref = { organizationId, siteId };
  const found = await as(sites.get, ref);
  const here = `/o/${encodeURIComponent(organizationId)}/sites/${encodeURIComponent(siteId)}`;
  const form = req.form ?? {};
  const show = async (status: number, createdShareLink?: { name?: string; url: string }) => {
    const org = await as(orgs.get, { organizationId });
    const canAdmin = org.permissions?.createContent === true;
    const none = { items: [] };
    const [customization, siteSpaces, spaces, shareLinks, redirects, sections] = await Promise.all([
      as(sites.getCustomization, ref),
      as(sites.listSiteSpacesOf, { ...ref, limit: 100 }),
      canAdmin ? as(contentApi.listSpaces, { organizationId, limit: 100 }) : none,
      canAdmin ? as(sites.listShareLinks, { ...ref, limit: 100 }).catch(() => none) : none,
      canAdmin ? as(sites.listRedirects, { ...ref, limit: 100 }).catch(() => none) : none,
      as(listSections, { ...ref, limit: 100 }),
    ]);
    const inSite = new Set(siteSpaces.items.map((s) => s.space.id));
    return page(
      status,
      siteSettingsPage(viewer, {
        orgId: organizationId,
        site: found as sites.SiteResource & { hostname?: string },
        canAdmin,
        customization: looksOf(customization),
        siteSpaces: siteSpaces.items,
        spaces: spaces.items.filter((s) => !inSite.has(s.id)),
        allSpaces: spaces.items,
        shareLinks: shareLinks.items,
        redirects: redirects.items,
        sections: sections.items,
        createdShareLink,
      }),
    );
  };
  if (req.method !== "POST") return show(200);
  // Sections, a space added (to a section), a site space's path (site-sections.ts).
  if (await sectionForm(as, form, ref)) return redirect(here);
  switch (form.intent) {
    case "settings": {
      const title = text(form, "title", "A site's title", 2, 128);
      const basename = text(form, "basename", "The basename", 0, 100);
      if (basename && !BASENAME.test(basename)) throw badForm("The basename ('basename') is lower-case letters, digits and inner hyphens, e.g. api-docs.");
      const visibility = form.visibility as sites.SiteVisibility;
      if (!["public", "unlisted", "share-link", "visitor-auth"].includes(visibility)) throw badForm("Pick one of the visibilities offered ('visibility').");
      const hostname = text(form, "hostname", "The hostname", 0, 253).toLowerCase();
      const had = typeof (found as { hostname?: unknown }).hostname === "string";
      await as(sites.update, {
        ...ref,
        title,
        visibility,
        ...(basename && basename !== found.basename ? { basename } : {}),
        ...(hostname ? { hostname } : had ? { hostname: null } : {}),
      });
      return redirect(here);
    }
    case "customization": {
      const current = await as(sites.getCustomization, ref);
      await as(sites.updateCustomization, { ...withLooks(current, form), ...ref });
      return redirect(here);
    }
    case "remove-space":
      await as(sites.removeSiteSpace, { ...ref, siteSpaceId: idOf(form, "siteSpace") });
      return redirect(here);
    case "create-share-link": {
      const name = text(form, "name", "A share link's name", 0, 50);
      const created = await as(sites.createShareLink, { ...ref, name });
      // The key is kept hashed: its address exists only in this answer.
      return show(201, { name: name || undefined, url: created.urls?.published ?? "" });
    }
    case "remove-share-link":
      await as(sites.removeShareLink, { ...ref, shareLinkId: idOf(form, "shareLink") });
      return redirect(here);
    case "create-redirect": {
      const source = text(form, "source", "A redirect's source", 1, 512);
      if (!source.startsWith("/")) throw badForm("A redirect's source ('source') is a path of the site such as /old/page.");
      const destination = text(form, "destination", "A redirect's destination", 1, 2048);
      const spaceId = form.space ? idOf(form, "space") : (await as(sites.listSiteSpacesOf, { ...ref, limit: 1 })).items[0]?.space.id;
      await as(sites.createRedirect, { ...ref, source, destination: destinationOf(destination, spaceId) });
      return redirect(here);
    }
    case "delete-redirect":
      await as(sites.deleteRedirect, { ...ref, siteRedirectId: idOf(form, "redirect") });
      return redirect(here);
    case "delete":
      confirmed(form, "the site");
      await as(sites.remove, ref);
      return redirect(`/o/${encodeURIComponent(organizationId)}`);
    default:
      throw notFound();
  }
}

/** `/o/{org}/sso`: verified domains (the TXT record to add), OpenID Connect and SAML providers; administrators. */
async function ssoSettings(as: As, req: AppRequest, viewer: Viewer, organizationId: string): Promise<AppAnswer> {
  const org = await as(orgs.get, { organizationId });
  // Members who are not administrators: the same page as for anything they cannot see.
  if (org.permissions?.admin !== true) throw notFound();
  const here = `/o/${encodeURIComponent(organizationId)}/sso`;
  const form = req.form ?? {};
  if (req.method === "POST") {
    switch (form.intent) {
      case "add-domain":
        await as(identity.createSsoDomain, { organizationId, domain: text(form, "domain", "A domain", 1, 253).toLowerCase() });
        return redirect(here);
      case "verify-domain":
        await as(identity.verifySsoDomain, { organizationId, domain: text(form, "domain", "A domain", 1, 253) });
        return redirect(here);
      case "delete-domain":
        await as(identity.deleteSsoDomain, { organizationId, domain: text(form, "domain", "A domain", 1, 253) });
        return redirect(here);
      case "add-oidc":
        await as(identity.createOidcProvider, {
          organizationId,
          label: text(form, "label", "A provider's name", 1, 30),
          issuer: text(form, "issuer", "The issuer", 1, 2048),
          clientId: text(form, "clientId", "The client id", 1, 256),
          clientSecret: text(form, "clientSecret", "The client secret", 1, 512),
        });
        return redirect(here);
      case "delete-oidc":
        await as(identity.deleteOidcProvider, { organizationId, oidcProviderId: idOf(form, "provider") });
        return redirect(here);
      case "add-saml":
        await as(identity.createSamlProvider, {
          organizationId,
          label: text(form, "label", "A provider's name", 1, 30),
          entityID: text(form, "entityID", "The entity ID", 1, 1024),
          ssoURL: text(form, "ssoURL", "The sign-in URL", 1, 2048),
          certificate: text(form, "certificate", "The certificate", 1, 10000),
        });
        return redirect(here);
      case "edit-saml": {
        // Fields named as the API names them; identity answers 400 naming the field it refuses (a certificate that is no certificate, an ssoURL that is no URL).
        const defaultRole = form.defaultRole ?? "read";
        if (!["read", "comment", "edit", "review", "create", "admin"].includes(defaultRole)) throw badForm("Pick one of the roles offered ('defaultRole').");
        const certificate = (form.certificate ?? "").trim();
        if (certificate.length > 10000) throw badForm("The certificate ('certificate') is at most 10000 characters.");
        await as(identity.updateSamlProvider, {
          organizationId,
          samlProviderId: idOf(form, "provider"),
          label: text(form, "label", "A provider's name", 1, 30),
          entityID: text(form, "entityID", "The entity ID", 1, 1024),
          ssoURL: text(form, "ssoURL", "The sign-in URL", 1, 2048),
          defaultRole: defaultRole as Role,
          ...(certificate ? { certificate } : {}),
        });
        return redirect(here);
      }
      case "delete-saml":
        await as(identity.deleteSamlProvider, { organizationId, samlProviderId: idOf(form, "provider") });
        return redirect(here);
      default:
        throw notFound();
    }
  }
  const none = { items: [] };
  const [domains, oidc, saml] = await Promise.all([
    as(identity.listSsoDomains, { organizationId, limit: 100 }),
    as(identity.listOidcProviders, { organizationId, limit: 100 }).catch(() => none),
    as(identity.listSamlProviders, { organizationId, limit: 100 }).catch(() => none),
  ]);
  return page(200, ssoSettingsPage(viewer, { org, domains: domains.items, oidc: oidc.items, saml: saml.items, base: baseOf(org) }));
}
