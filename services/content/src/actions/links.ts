// The link reports of a space and of one page: every link, grouped by target, classified ok, broken or in-app.
import type { Context } from "moleculer";
import { ForbiddenError, NotFoundError } from "@docshelf/errors";
import { listParams } from "@docshelf/list";
import { idRule } from "@docshelf/validation";
import type { RevisionDoc, SpaceDoc } from "../models";
import { pageArray } from "../paging";
import { presentFile, presentPage } from "../present";
import { linkReport, type LinkReport, type LinkUsage } from "../revisions/links";
import type { PageNode } from "../revisions/tree";
import type { ContentPart, Ctx } from "../service-types";

/** Locations listed per link target: a target linked from thousands of pages would not fit in an answer. */
export const MAX_LOCATIONS = 100;

const query = { ...listParams, status: { type: "enum", values: ["ok", "broken", "in-app"], optional: true } } as const;

interface LinksQuery {
  spaceId: string;
  page?: string;
  limit?: number;
  status?: LinkUsage["status"];
  /** A revision of the space to report on instead of its current one (change requests' content). */
  revisionId?: string;
}

/** The organization as GitBook's Organization resource, read as the caller (locations embed it). */
export async function organizationOf(ctx: Context, organizationId: string): Promise<unknown> {
  try {
    return await ctx.call("orgs.get", { organizationId });
  } catch (err) {
    if ((err as { code?: number }).code === 404) {
      throw new ForbiddenError("Link reports show where content lives in the organization: only its members may read them.");
    }
    throw err;
  }
}

export const linkActions: ContentPart = {
  actions: {
    listSpaceLinks: {
      params: { spaceId: idRule, ...query },
      async handler(ctx: Ctx<LinksQuery>) {
        return this.serveLinks(ctx, ctx.params);
      },
    },

    listPageLinks: {
      params: { spaceId: idRule, pageId: idRule, ...query },
      async handler(ctx: Ctx<LinksQuery & { pageId: string }>) {
        return this.serveLinks(ctx, ctx.params, ctx.params.pageId);
      },
    },
  },

  methods: {
    async linkReportOf(_space: SpaceDoc, revision: RevisionDoc, onlyPage?: string): Promise<LinkReport> {
      // A revision never changes, so neither does its report: keep the last few.
      const key = `${revision.id}:${onlyPage ?? ""}`;
      const cached = this.linkReports.get(key);
      if (cached) return cached;
      const report = await this.computeLinkReport(revision, onlyPage);
      this.linkReports.set(key, report);
      while (this.linkReports.size > 32) this.linkReports.delete(this.linkReports.keys().next().value as string);
      return report;
    },

    async computeLinkReport(revision: RevisionDoc, onlyPage?: string): Promise<LinkReport> {
      const only = onlyPage ? this.pageIndex(revision).get(onlyPage) : undefined;
      const bodies = only
        ? new Map([[only.id, await this.markdownOf(only.documentId)]])
        : new Map((await this.pagesWithMarkdown(revision)).map((p) => [p.id, p.markdown]));
      const markdownOf = (page: PageNode) => bodies.get(page.id);
      return linkReport(revision.pages, revision.files, markdownOf, `${this.publicUrl()}/s`, onlyPage);
    },

    async serveLinks(ctx: Ctx<unknown>, params: LinksQuery, pageId?: string) {
      const { space, role } = await this.loadSpace(ctx, params.spaceId);
      const revision = await this.loadRevision(space.id, params.revisionId ?? space.revision);
      const index = this.pageIndex(revision);
      if (pageId && !index.has(pageId)) throw new NotFoundError(`Page ${pageId} was not found in the space.`);
      const report = await this.linkReportOf(space, revision, pageId);
      const organization = await organizationOf(ctx, space.organizationId);
      const spaceResource = this.presentSpaceFor(space, role);
      const opts = this.presentOptions(space.id);
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
            targetReference = { kind: "file", organization, space: spaceResource, file: presentFile(file, this.downloadURL(file)) };
          }
          return {
            status: usage.status,
            relation: "reference" as const,
            targetReference,
            locationReferences: usage.from.slice(0, MAX_LOCATIONS).flatMap((id) => (index.has(id) ? [location(index.get(id) as PageNode)] : [])),
          };
        }),
      );
      return this.respondJson(ctx, null, () => ({ ...envelope(), stats: report.stats }));
    },
  },
};
