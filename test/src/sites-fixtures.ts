// Shared fixtures of the sites suites: an organization with an admin, a member per role, and helpers.
import { addMember, createOrg, createSpace, createUser, type RunningSystem, type TestUser } from "@docshelf/testkit";

export interface SitesWorld {
  owner: TestUser;
  reader: TestUser;
  creator: TestUser;
  editor: TestUser;
  guest: TestUser;
  outsider: TestUser;
  orgId: string;
  sites: string;
}

export async function sitesWorld(sys: RunningSystem): Promise<SitesWorld> {
  const owner = await createUser(sys.admin);
  const orgId = (await createOrg(owner.api)).id;
  const [reader, creator, editor, guest, outsider] = await Promise.all([1, 2, 3, 4, 5].map(() => createUser(sys.admin)));
  await addMember(owner.api, orgId, reader.email, "read");
  await addMember(owner.api, orgId, creator.email, "create");
  await addMember(owner.api, orgId, editor.email, "edit");
  await addMember(owner.api, orgId, guest.email, null);
  return { owner, reader, creator, editor, guest, outsider, orgId, sites: `/v1/orgs/${orgId}/sites` };
}

export async function newSite(world: SitesWorld, body: Record<string, unknown> = {}): Promise<any> {
  const res = await world.owner.api.post(world.sites, { title: "Docs site", ...body });
  if (res.status !== 201) throw new Error(`create site: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function newSpace(world: SitesWorld, title = "Guide"): Promise<string> {
  return (await createSpace(world.owner.api, world.orgId, { title })).id;
}

/** Adds a section (with a new space in it) to a site. */
export async function newSection(world: SitesWorld, siteId: string, title?: string): Promise<any> {
  const spaceId = await newSpace(world, title ?? "Section space");
  const res = await world.owner.api.post(`${world.sites}/${siteId}/sections`, { spaceId, ...(title ? { title } : {}) });
  if (res.status !== 201) throw new Error(`add section: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
