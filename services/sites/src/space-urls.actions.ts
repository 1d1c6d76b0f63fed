// Where a space is published: content's `urls.published` of a space comes from the sites that link it.
import type { SpacePublishedUrl } from "@docshelf/contracts/sites";
import { broadcast } from "@docshelf/contracts/action";
import * as events from "@docshelf/contracts/events";
import { op } from "@docshelf/store";
import { idRule } from "@docshelf/validation";
import type { SiteDoc } from "./models";
import { StructurePresenter } from "./present";
import type { Ctx, SitesActions, SitesService } from "./service-types";

export type { SpacePublishedUrl };

/**
 * Tells every node that a space's published URL may have moved (a site published or not, renamed, its
 * structure or paths changed): content drops the published URLs it keeps. Each action that can move
 * one calls this as its last step.
 */
export async function announceUrlChange(ctx: Ctx<unknown>, siteId: string): Promise<void> {
  await broadcast(ctx, events.sitesUrlsChanged, { siteId });
}

async function urlIn(service: SitesService, site: SiteDoc, siteSpaceId: string, shareKey: string | undefined): Promise<string | undefined> {
  const [sections, siteSpaces] = await Promise.all([service.sections.find({ siteId: site.id }), service.siteSpaces.find({ siteId: site.id })]);
  const presenter = new StructurePresenter({ site, sections, groups: [], siteSpaces, spaces: new Map() }, service.publicUrl(), shareKey);
  const siteSpace = siteSpaces.find((s) => s.id === siteSpaceId);
  return siteSpace ? presenter.publishedUrlOf(siteSpace) : undefined;
}

export const spaceUrlActions: SitesActions = {
  /**
   * Internal: the published URL of a space, from the oldest published site that links it. A share-link
   * site counts only with a `shareKey` that opens it (the URL then carries the key), and is preferred
   * then; unlisted and visitor-auth sites count like public ones. null when no published site links it.
   */
  spacePublishedUrl: {
    visibility: "public",
    params: { spaceId: idRule, shareKey: { type: "string", optional: true, min: 1, max: 256 } },
    async handler(this: SitesService, ctx: Ctx<{ spaceId: string; shareKey?: string }>): Promise<SpacePublishedUrl | null> {
      const { spaceId, shareKey } = ctx.params;
      const links = await this.siteSpaces.find({ spaceId });
      if (!links.length) return null;
      const sites = await this.sites.find({ id: op.in([...new Set(links.map((l) => l.siteId))]), published: true });
      sites.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
      const opened = shareKey ? sites.filter((s) => s.visibility === "share-link") : [];
      for (const site of [...opened, ...sites.filter((s) => s.visibility !== "share-link")]) {
        if (site.visibility === "share-link" && !(await this.shareKeyResolves(site.id, shareKey as string))) continue;
        const link = links.find((l) => l.siteId === site.id);
        const url = link && (await urlIn(this, site, link.id, site.visibility === "share-link" ? shareKey : undefined));
        if (url) return { siteId: site.id, url, visibility: site.visibility };
      }
      return null;
    },
  },
};
