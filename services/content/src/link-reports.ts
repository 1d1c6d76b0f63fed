// Link reports as answered: of a space's revision or of one page, every link grouped by target and
// classified ok, broken or in-app, with the pages it is used on (links and change-request reads), and
// the pages that use a file (file backlinks).
import type { Context } from "moleculer";
import type { RoleOrGuest } from "@docshelf/access";
import { call } from "@docshelf/contracts/action";
import * as orgs from "@docshelf/contracts/orgs";
import { ForbiddenError, NotFoundError } from "@docshelf/errors";
import type { RevisionDoc, SpaceDoc } from "./models";
import { pageArray } from "./paging";
import { presentFile, presentPage } from "./present";
import { rememberLru } from "./lru";
import { linkReport, type LinkReport, type LinkUsage } from "./revisions/links";
import type { PageNode } from "./revisions/tree";
import type { BacklinksQuery, ContentService, Ctx } from "./service-types";

/** Locations listed per link target: a target linked from thousands of pages would not fit in an answer. */
export const MAX_LOCATIONS = 100;

/** Link reports kept per node (by revision and page). */
const KEPT_REPORTS = 32;

export interface LinksQuery {
  spaceId: string;
  page?: string;
  limit?: number;
  status?: LinkUsage["status"];
  /** A revision of the space to report on instead of its current one (change requests' content). */
  revisionId?: string;
}

/** The organization as GitBook's Organization resource, read as the caller (locations embed it). */
export async function organizationOf(ctx: Context, organizationId: string): Promise<orgs.OrganizationResource> {
  try {
    return await call(ctx, orgs.get, { organizationId });
  } catch (err) {
    if ((err as { code?: number }).code === 404) {
      throw new ForbiddenError("Link reports show where content lives in the organization: only its members may read them.");
    }
    throw err;
  }
}

async function computeLinkReport(service: ContentService, revision: RevisionDoc, onlyPage?: string): Promise<LinkReport> {
  const only = onlyPage ? service.pageIndex(revision).get(onlyPage) : undefined;
  const bodies = only
    ? new Map([[only.id, await service.markdownOf(only.documentId)]])
    : new Map((await service.pagesWithMarkdown(revision)).map((p) => [p.id, p.markdown]));
  const markdownOf = (page: PageNode) => bodies.get(page.id);
  return linkReport(revision.pages, revision.files, markdownOf, `${service.publicUrl()}/s`, onlyPage);
}

/** The link report of a revision (or of one of its pages); a revision never changes, so neither does its report: the last few are kept. */
export async function linkReportOf(service: ContentService, revision: RevisionDoc, onlyPage?: string): Promise<LinkReport> {
  const key = `${revision.id}:${onlyPage ?? ""}`;
  const cached = service.linkReports.get(key);
  if (cached) return cached;
  return rememberLru(service.linkReports, key, await computeLinkReport(service, revision, onlyPage), KEPT_REPORTS);
}

/** GitBook's link report envelope of the space's revision (current, or `params.revisionId`), or of one page of it. */
export async function serveLinks(service: ContentService, ctx: Ctx<unknown>, params: LinksQuery, pageId?: string): Promise<unknown> {
  const { space, role } = await service.loadSpace(ctx, params.spaceId);
  const revision = await service.loadRevision(space.id, params.revisionId ?? space.revision);
  const index = service.pageIndex(revision);
  if (pageId && !index.has(pageId)) throw new NotFoundError(`Page ${pageId} was not found in the space.`);
  const report = await linkReportOf(service, revision, pageId);
  const organization = await organizationOf(ctx, space.organizationId);
  const spaceResource = service.presentSpaceFor(space, role);
  const opts = service.presentOptions(space.id);
  const files = new Map(revision.files.map((f) => [f.id, f]));
  const location = (page: PageNode) => ({ kind: "page" as const, organization, space: spaceResource, page: presentPage(page, opts, 0) });
  const items = params.status ? report.items.filter((item) => item.status === params.status) : report.items;
  const envelope = () => pageArray(items, { page: params.page, limit: params.limit }, (usages) =>
    usages.map((usage) => {
      const t = usage.target;
      let targetReference: unknown = { kind: "url", url: t.kind === "url" ? t.url : "" };
      if (t.kind === "page" && index.has(t.page)) targetReference = location(index.get(t.page) as PageNode);
      if (t.kind === "file" && files.has(t.file)) {
        const file = files.get(t.file)!;
        targetReference = { kind: "file", organization, space: spaceResource, file: presentFile(file, service.downloadURL(file)) };
      }
      return {
        status: usage.status,
        relation: "reference" as const,
        targetReference,
        locationReferences: usage.from.slice(0, MAX_LOCATIONS).flatMap((id) => (index.has(id) ? [location(index.get(id) as PageNode)] : [])),
      };
    }),
  );
  return service.respondJson(ctx, null, () => ({ ...envelope(), stats: report.stats }));
}

/** The pages of `revision` whose content links to a file, as GitBook's backlink items (`where` names the revision in a 404). */
export async function serveFileBacklinks(service: ContentService, ctx: Ctx<unknown>, space: SpaceDoc, role: RoleOrGuest, revision: RevisionDoc, query: BacklinksQuery, where: string): Promise<unknown> {
  const file = revision.files.find((f) => f.id === query.fileId);
  if (!file) throw new NotFoundError(`File ${query.fileId} was not found in ${where}.`);
  const report = await linkReportOf(service, revision);
  const usage = report.items.find((item) => item.target.kind === "file" && item.target.file === file.id);
  const index = service.pageIndex(revision);
  const pages = (usage?.from ?? []).flatMap((id) => (index.has(id) ? [index.get(id) as PageNode] : []));
  const organization = await organizationOf(ctx, space.organizationId);
  const spaceResource = service.presentSpaceFor(space, role);
  const opts = service.presentOptions(space.id);
  return pageArray(pages, { page: query.page, limit: query.limit }, (items) =>
    items.map((p) => ({ kind: "page" as const, organization, space: spaceResource, page: presentPage(p, opts, 0) })),
  );
}
