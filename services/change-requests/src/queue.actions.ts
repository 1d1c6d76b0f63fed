// The organization-wide review queue: change requests of every space the caller sees (GitBook's listChangeRequestsForOrganization).
import { call } from "@docshelf/contracts/action";
import * as content from "@docshelf/contracts/content";
import * as identity from "@docshelf/contracts/identity";
import * as sites from "@docshelf/contracts/sites";
import { BadRequestError } from "@docshelf/errors";
import { listPage, listParams } from "@docshelf/list";
import { op, type Filter } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import { STATUSES, type ChangeRequestDoc, type Status } from "./models";
import { presentChangeRequest } from "./present";
import type { ChangeRequestsActions, ChangeRequestsService, Ctx } from "./service-types";

/** Spaces read from content per call while collecting the caller's spaces of the organization. */
const SPACE_PAGE = 1000;

interface QueueQuery {
  organizationId: string;
  page?: string;
  limit?: number;
  status?: Status | Status[];
  creator?: string;
  contributor?: string;
  requestedReviewer?: string;
  site?: string;
  space?: string;
  topic?: string;
  styleguideRun?: string;
  finding?: "none" | "all";
  orderBy?: "updatedAt" | "createdAt";
}

interface Listed<T> {
  items: T[];
  next?: { page: string };
}

/** Main's revision of every space of the organization the caller sees (content's own list, so the same visibility). */
async function visibleSpaces(ctx: Ctx<unknown>, organizationId: string): Promise<Map<string, string>> {
  const revisions = new Map<string, string>();
  let page: string | undefined;
  do {
    const listed: Listed<{ id: string; revision: string }> = await call(ctx, content.listSpaces, { organizationId, limit: SPACE_PAGE, ...(page ? { page } : {}) });
    for (const space of listed.items) revisions.set(space.id, space.revision);
    page = listed.next?.page;
  } while (page);
  return revisions;
}

/** The spaces of a site of the organization, as the caller sees it; 400 naming `site` when there is none. */
async function siteSpaces(ctx: Ctx<unknown>, organizationId: string, siteId: string): Promise<Set<string>> {
  const ids = new Set<string>();
  let page: string | undefined;
  do {
    const listed: Listed<{ space: { id: string } }> = await call(ctx, sites.listSiteSpaces, { organizationId, siteId, limit: SPACE_PAGE, ...(page ? { page } : {}) })
      .catch((err: unknown) => {
        if ((err as { code?: number })?.code === 404) throw new BadRequestError(`The 'site' parameter names no site of the organization (${siteId}).`);
        throw err;
      });
    for (const siteSpace of listed.items) ids.add(siteSpace.space.id);
    page = listed.next?.page;
  } while (page);
  return ids;
}

async function presentMany(service: ChangeRequestsService, ctx: Ctx<unknown>, docs: ChangeRequestDoc[], mains: Map<string, string>) {
  const ids = [...new Set(docs.map((d) => d.createdBy))];
  const users = ids.length ? await identity.usersById(ctx, ids) : {};
  return docs.map((doc) => presentChangeRequest(doc, { publicUrl: service.publicUrl(), users, mainRevision: mains.get(doc.spaceId) ?? null }));
}

export const queueActions: ChangeRequestsActions = {
  /**
   * GET /orgs/:organizationId/change-requests — any member (guests: the spaces open to them); a
   * non-member 404. Filters as GitBook's: `status` (repeated or one; default open), `creator`,
   * `contributor`, `requestedReviewer`, `space`, `site` (its site spaces), `orderBy` (updatedAt or
   * createdAt, newest first). `topic` and `styleguideRun` match nothing here (no site topics or style
   * guide runs open change requests); `finding` is accepted (no triage change requests exist).
   */
  listForOrganization: {
    params: {
      organizationId: idRule,
      ...listParams,
      status: {
        type: "multi",
        optional: true,
        rules: [
          { type: "enum", values: [...STATUSES] },
          { type: "array", min: 1, max: STATUSES.length, items: { type: "enum", values: [...STATUSES] } },
        ],
      },
      creator: { ...idRule, optional: true },
      contributor: { ...idRule, optional: true },
      requestedReviewer: { ...idRule, optional: true },
      site: { ...idRule, optional: true },
      space: { ...idRule, optional: true },
      topic: { type: "string", optional: true, min: 1, max: 128 },
      styleguideRun: { type: "string", optional: true, min: 1, max: 128 },
      finding: { type: "enum", values: ["none", "all"], optional: true },
      orderBy: { type: "enum", values: ["updatedAt", "createdAt"], optional: true },
    },
    async handler(ctx: Ctx<QueueQuery>) {
      const { organizationId, page, limit, creator, contributor, requestedReviewer } = ctx.params;
      const mains = await visibleSpaces(ctx, organizationId);
      let spaceIds = [...mains.keys()];
      if (ctx.params.space) spaceIds = spaceIds.filter((id) => id === ctx.params.space);
      if (ctx.params.site) {
        const onSite = await siteSpaces(ctx, organizationId, ctx.params.site);
        spaceIds = spaceIds.filter((id) => onSite.has(id));
      }
      if (ctx.params.topic || ctx.params.styleguideRun) spaceIds = [];
      const statuses = ctx.params.status === undefined ? ["open"] : ([] as Status[]).concat(ctx.params.status);
      const filter: Filter = { spaceId: op.in(spaceIds), status: op.in([...new Set(statuses)]) };
      if (creator) filter.createdBy = creator;
      if (contributor) filter.contributors = contributor;
      if (requestedReviewer) {
        const requests = await this.reviewRequests.find({ userId: requestedReviewer }, { limit: 10_000 });
        filter.id = op.in(requests.map((r) => r.changeRequestId));
      }
      const orderBy = ctx.params.orderBy ?? "updatedAt";
      return listPage(this.changeRequests, filter, { page, limit, sort: [[orderBy, -1]] }, (docs) => presentMany(this, ctx, docs, mains));
    },
  },
};
