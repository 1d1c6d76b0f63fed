// The world both API sweeps run against: organization A with an admin and a member per role, a second
// organization B with its own admin and the same resources, and a small website to import from.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { addMember, createOrg, createSpace, createUser, startEmbedded, type ApiClient, type ApiResponse, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { makeIdp, type TestIdp } from "./saml-idp";

export const CALLER_ROLES = ["admin", "create", "review", "edit", "comment", "read"] as const;
export type CallerRole = (typeof CALLER_ROLES)[number];

/** Every path parameter an operation names, and the two comment threads of a change request. */
export interface Resources {
  organizationId: string;
  spaceId: string;
  pageId: string;
  fileId: string;
  changeRequestId: string;
  commentId: string;
  commentReplyId: string;
  crCommentId: string;
  crCommentReplyId: string;
  collectionId: string;
  teamId: string;
  userId: string;
  inviteId: string;
  emailDomain: string;
  siteId: string;
  siteSectionId: string;
  siteSectionGroupId: string;
  siteSpaceId: string;
  shareLinkId: string;
  specSlug: string;
  versionId: string;
  translationSettingsId: string;
  samlProviderId: string;
  importRunId: string;
  /** The space import runs write into (not the Handbook, whose pages other operations read). */
  importSpaceId: string;
}

export interface Org {
  admin: TestUser;
  /** A member with role `read` that member operations act on. */
  target: TestUser;
  ids: Resources;
}

export interface World {
  sys: RunningSystem;
  a: Org;
  b: Org;
  /** Organization A's members by role, its admin first. */
  members: Record<CallerRole, TestUser>;
  /** A member of A without a role. */
  guest: TestUser;
  /** Another organization of A's admin, to transfer spaces and collections into. */
  transferOrgId: string;
  idp: TestIdp;
  /** The URL of a page the website import may fetch. */
  websiteUrl: string;
  /** A URL of the same website that never answers: an import run over it stays in progress until cancelled. */
  hangingUrl: string;
  website: Server;
}

/** 2xx or throws, naming what failed. */
export function ok<T>(res: ApiResponse<T>, what: string): T {
  if (res.status < 200 || res.status > 299) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
  return res.body;
}

/** Runs `work` over `items`, `width` at a time. */
export async function inParallel<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

/** A one-page website on 127.0.0.1 that the content service is allowed to import from; `/hang` never answers. */
async function serveWebsite(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    if (req.url === "/hang") return;
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<!doctype html><html><head><title>Imported</title></head><body><main><h1>Imported</h1><p>Text.</p></main></body></html>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

export const openapiText = JSON.stringify({ openapi: "3.0.3", info: { title: "Pets", version: "1.0.0" }, paths: { "/pets": { get: { responses: { "200": { description: "ok" } } } } } });
export const adaptiveSchema = { type: "object", properties: { beta: { type: "boolean", description: "Beta" } }, additionalProperties: false };

/** Starts one process with no rate limits (the sweeps send thousands of requests) and imports allowed from the website. */
export async function startSweepSystem(): Promise<{ sys: RunningSystem; website: Server; websiteUrl: string }> {
  const { server, url } = await serveWebsite();
  // The content service reads its import allowance from the process environment when it is created.
  process.env.CONTENT_IMPORT_ALLOW_PRIVATE = `127.0.0.1:${new URL(url).port}`;
  // Import runs: the authorization sweep keeps one in progress per caller to cancel, more than the default 5 a time.
  const sys = await startEmbedded({ RATE_LIMIT_PER_MINUTE: "0", RATE_LIMIT_ANON_PER_MINUTE: "0", CONTENT_IMPORT_MAX_ACTIVE_RUNS: "1000" });
  return { sys, website: server, websiteUrl: url };
}

async function waitFor<T>(check: () => Promise<T | undefined>, what: string, deadlineMs = 20_000): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Every kind of resource in one organization owned by `admin`. */
async function populate(sys: RunningSystem, admin: TestUser, target: TestUser, idp: TestIdp, name: "a" | "b", websiteUrl: string): Promise<Resources> {
  const emailDomain = `${name}.example.com`;
  const api: ApiClient = admin.api;
  const organizationId = (await createOrg(api)).id;
  ok(await api.patch(`/v1/orgs/${organizationId}`, { emailDomains: [emailDomain] }), "email domain");
  await addMember(api, organizationId, target.email, "read");
  const spaceId = (await createSpace(api, organizationId, { title: "Handbook" })).id;
  const file = { type: "insert_file", name: "logo.txt", contentType: "text/plain", data: Buffer.from("logo").toString("base64") };
  ok(await sys.admin.post(`/v1/_test/spaces/${spaceId}/changes`, { changes: [{ type: "insert_page", markdown: "# Welcome\n\nHello [logo](logo.txt)." }, file] }), "pages");
  const revision = ok(await api.get(`/v1/spaces/${spaceId}/content`), "revision") as { pages: Array<{ id: string }>; files: Array<{ id: string }> };
  const changeRequestId = (ok(await api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: "Proposal" }), "change request") as { id: string }).id;
  const commentId = (ok(await api.post(`/v1/spaces/${spaceId}/comments`, { body: { markdown: "A comment" } }), "comment") as { id: string }).id;
  const commentReplyId = (ok(await api.post(`/v1/spaces/${spaceId}/comments/${commentId}/replies`, { body: { markdown: "A reply" } }), "reply") as { id: string }).id;
  const crThread = `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/comments`;
  const crCommentId = (ok(await api.post(crThread, { body: { markdown: "A review comment" } }), "cr comment") as { id: string }).id;
  const crCommentReplyId = (ok(await api.post(`${crThread}/${crCommentId}/replies`, { body: { markdown: "A review reply" } }), "cr reply") as { id: string }).id;
  const collectionId = (ok(await api.post(`/v1/orgs/${organizationId}/collections`, { title: "Shelf" }), "collection") as { id: string }).id;
  const teamId = (ok(await api.put(`/v1/orgs/${organizationId}/teams`, { title: "Writers" }), "team") as { id: string }).id;
  const inviteId = (ok(await api.post(`/v1/orgs/${organizationId}/link-invites`, { role: "read" }), "link invite") as { id: string }).id;
  const sites = `/v1/orgs/${organizationId}/sites`;
  const siteId = (ok(await api.post(sites, { title: "Docs" }), "site") as { id: string }).id;
  const sectionSpace = (await createSpace(api, organizationId, { title: "Section space" })).id;
  const siteSectionId = (ok(await api.post(`${sites}/${siteId}/sections`, { spaceId: sectionSpace, title: "Guides" }), "section") as { id: string }).id;
  const siteSectionGroupId = (ok(await api.post(`${sites}/${siteId}/section-groups`, { title: "Group" }), "group") as { id: string }).id;
  const siteSpaceId = (ok(await api.post(`${sites}/${siteId}/site-spaces`, { spaceId, sectionId: siteSectionId }), "site space") as { id: string }).id;
  const shareLinkId = (ok(await api.post(`${sites}/${siteId}/share-links`, { name: "Preview" }), "share link") as { id: string }).id;
  // Slugs differ between the organizations, so that one names nothing in the other.
  const specSlug = `pets-${name}`;
  ok(await api.post(`/v1/orgs/${organizationId}/openapi`, { slug: specSlug, source: { text: openapiText } }), "spec");
  const versionId = await waitFor(async () => {
    const latest = await api.get(`/v1/orgs/${organizationId}/openapi/${specSlug}/versions/latest`);
    return latest.status === 200 ? (latest.body.id as string) : undefined;
  }, "the spec's first version");
  const translationSettingsId = (ok(await api.post(`/v1/orgs/${organizationId}/translations`, { title: "French" }), "translation") as { id: string }).id;
  const samlProviderId = (
    ok(await api.post(`/v1/orgs/${organizationId}/saml`, { label: "IdP", entityID: idp.entityID, certificate: idp.certificate, ssoURL: idp.ssoURL }), "saml") as { id: string }
  ).id;
  // A finished import run (into a space of its own), so that reads of it settle before the sweeps compare the store.
  const importSpaceId = (await createSpace(api, organizationId, { title: "Imports" })).id;
  const imports = `/org/${organizationId}/imports`;
  const importRunId = (ok(await api.post(`/v1${imports}`, { source: { type: "website", url: websiteUrl }, target: { space: importSpaceId } }), "import run") as { id: string }).id;
  await waitFor(async () => {
    const run = await api.get(`/v1${imports}/${importRunId}`);
    return run.status === 200 && run.body.status === "completed" ? true : undefined;
  }, "the import run");
  return {
    organizationId,
    spaceId,
    pageId: revision.pages[0].id,
    fileId: revision.files[0].id,
    changeRequestId,
    commentId,
    commentReplyId,
    crCommentId,
    crCommentReplyId,
    collectionId,
    teamId,
    userId: target.id,
    inviteId,
    emailDomain,
    siteId,
    siteSectionId,
    siteSectionGroupId,
    siteSpaceId,
    shareLinkId,
    specSlug,
    versionId,
    translationSettingsId,
    samlProviderId,
    importRunId,
    importSpaceId,
  };
}

/** Links a space to a (refused) Git repository, so that its Git info exists; waits until the job is over. */
export async function linkGit(api: ApiClient, spaceId: string): Promise<void> {
  ok(await api.post(`/v1/spaces/${spaceId}/git/import`, { url: "https://127.0.0.1:1/repo.git", ref: "refs/heads/main" }), "git import");
  await waitFor(async () => {
    const info = await api.get(`/v1/spaces/${spaceId}/git/info`);
    const state = info.body?.operation?.state;
    return info.status === 200 && (state === "success" || state === "failure") ? true : undefined;
  }, "the git job");
}

export async function buildWorld(): Promise<World> {
  const { sys, website, websiteUrl } = await startSweepSystem();
  const users = await Promise.all(Array.from({ length: 10 }, () => createUser(sys.admin)));
  const [adminA, targetA, adminB, targetB, guest, ...rest] = users;
  const members = Object.fromEntries(CALLER_ROLES.map((role, i) => [role, i === 0 ? adminA : rest[i - 1]])) as Record<CallerRole, TestUser>;
  const idp = await makeIdp();
  const [idsA, idsB] = await Promise.all([populate(sys, adminA, targetA, idp, "a", websiteUrl), populate(sys, adminB, targetB, idp, "b", websiteUrl)]);
  for (const role of CALLER_ROLES.slice(1)) await addMember(adminA.api, idsA.organizationId, members[role].email, role);
  await addMember(adminA.api, idsA.organizationId, guest.email, null);
  await Promise.all([linkGit(adminA.api, idsA.spaceId), linkGit(adminB.api, idsB.spaceId)]);
  const transferOrgId = (await createOrg(adminA.api, "Transfer target")).id;
  return { sys, a: { admin: adminA, target: targetA, ids: idsA }, b: { admin: adminB, target: targetB, ids: idsB }, members, guest, transferOrgId, idp, websiteUrl, hangingUrl: new URL("/hang", websiteUrl).href, website };
}

export async function stopWorld(world: World | undefined): Promise<void> {
  if (!world) return;
  await world.sys.stop();
  delete process.env.CONTENT_IMPORT_ALLOW_PRIVATE;
  world.website.closeAllConnections();
  await new Promise((resolve) => world.website.close(resolve));
}
