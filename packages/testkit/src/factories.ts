// Fixture factories: users with tokens, organizations, members and spaces, made through the API.
import { randomBytes } from "node:crypto";
import type { ApiClient } from "./http";

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(3).toString("hex")}`;

function expectStatus(res: { status: number; body: unknown }, status: number, what: string): void {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
}

export interface TestUser {
  id: string;
  email: string;
  token: string;
  api: ApiClient;
}

/** A new user and an API token for them (made by the instance administrator). */
export async function createUser(admin: ApiClient, fields: { email?: string; displayName?: string } = {}): Promise<TestUser> {
  const email = fields.email ?? `user-${unique()}@example.com`;
  const created = await admin.post("/v1/users", { email, displayName: fields.displayName ?? "Test User" });
  expectStatus(created, 201, "create user");
  const token = await admin.post(`/v1/users/${created.body.id}/tokens`, { label: "tests" });
  expectStatus(token, 201, "create token");
  const user = { id: created.body.id, email, token: token.body.token, api: admin.as(token.body.token) };
  madeUsers.set(userKey(admin.baseUrl, email), user);
  return user;
}

/** The users createUser made in this process, by instance and email: addMember accepts invitations as them. */
const madeUsers = new Map<string, TestUser>();
const userKey = (baseUrl: string, email: string) => `${baseUrl} ${email.toLowerCase()}`;

export async function createOrg(api: ApiClient, title = `Org ${unique()}`): Promise<{ id: string; body: any }> {
  const res = await api.post("/v1/orgs", { title });
  expectStatus(res, 201, "create organization");
  return { id: res.body.id, body: res.body };
}

/**
 * Adds an existing user to an organization with a role (null: guest): the organization's admin invites
 * the email, and the user (one createUser made, else no one) accepts the pending invitation, as an
 * account joins an organization only with its owner's consent. An email createUser did not make stays invited.
 */
export async function addMember(admin: ApiClient, organizationId: string, email: string, role: string | null): Promise<void> {
  const res = await admin.post(`/v1/orgs/${organizationId}/invites`, { emails: [email], role });
  expectStatus(res, 200, "invite member");
  const invitee = madeUsers.get(userKey(admin.baseUrl, email));
  if (!invitee) return;
  const pending = await invitee.api.get("/v1/user/invites?limit=100");
  expectStatus(pending, 200, "list my invitations");
  const invite = (pending.body.items as Array<{ id: string; organization: { id: string } }>).find((i) => i.organization.id === organizationId);
  if (!invite) throw new Error(`invite member: no pending invitation of ${organizationId} for ${email}`);
  const accepted = await invitee.api.post(`/v1/orgs/${organizationId}/invites/${invite.id}`, {});
  expectStatus(accepted, 200, "accept invitation");
  // A member already keeps their role (accepting never changes it): the role the caller asked for is set.
  const member = await admin.get(`/v1/orgs/${organizationId}/members/${invitee.id}`);
  if (member.status === 200 && member.body.role !== role) {
    expectStatus(await admin.patch(`/v1/orgs/${organizationId}/members/${invitee.id}`, { role }), 200, "set member role");
  }
}

export async function createSpace(api: ApiClient, organizationId: string, fields: Record<string, unknown> = {}): Promise<{ id: string; body: any }> {
  const res = await api.post(`/v1/orgs/${organizationId}/spaces`, { title: "Space", ...fields });
  expectStatus(res, 201, "create space");
  return { id: res.body.id, body: res.body };
}

/** Follows `next.page` until the end and returns every item. */
export async function walkPages(api: ApiClient, path: string, limit: number, between?: () => Promise<void>): Promise<any[]> {
  const items: any[] = [];
  let page: string | undefined;
  for (let i = 0; i < 10_000; i++) {
    const sep = path.includes("?") ? "&" : "?";
    const res = await api.get(`${path}${sep}limit=${limit}${page ? `&page=${encodeURIComponent(page)}` : ""}`);
    expectStatus(res, 200, `list ${path}`);
    items.push(...res.body.items);
    page = res.body.next?.page;
    if (!page) return items;
    if (between) await between();
  }
  throw new Error("pagination did not end");
}

interface TitledPage {
  id: string;
  title: string;
  pages?: TitledPage[];
}

/** The id of the first page titled `title` in the page tree `pagesUrl` answers (…/content/pages of a space or change request). */
export async function pageIdByTitle(api: ApiClient, pagesUrl: string, title: string): Promise<string> {
  const res = await api.get(pagesUrl);
  expectStatus(res, 200, `list ${pagesUrl}`);
  const find = (pages: TitledPage[]): string | undefined => {
    for (const p of pages) {
      if (p.title === title) return p.id;
      const inner = find(p.pages ?? []);
      if (inner) return inner;
    }
    return undefined;
  };
  const id = find(res.body.pages);
  if (!id) throw new Error(`no page "${title}" in ${pagesUrl}`);
  return id;
}
