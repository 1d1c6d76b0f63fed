// A site's sections and its site spaces' paths, on the site's settings page: GitBook's site sections (a
// section publishes one or more spaces under its own path; a site with sections shows them as tabs) added
// with a first space, renamed, given another path, moved up or down (their order is the tabs') and deleted; a space added to a section; a site space's
// path changed. Every form calls the sites service's action as the signed-in user (its rules decide: the
// create role on the organization), after the app refused a malformed field by name.
import { action } from "@docshelf/contracts/action";
import * as sites from "@docshelf/contracts/sites";
import type { As } from "./admin";
import { badForm, notFound } from "./page-error";

type SiteRef = { organizationId: string; siteId: string };

/** GitBook's SiteSection, the fields the page shows. */
export interface SiteSectionView {
  id: string;
  title: string;
  path: string;
  default?: boolean;
  siteSpaces: sites.SiteSpaceResource[];
}

export const listSections = action<SiteRef & { limit?: number }, { items: SiteSectionView[] }>("sites.listSections");
const addSection = action<SiteRef & { spaceId: string; title?: string }, SiteSectionView>("sites.addSection");
const updateSection = action<SiteRef & { siteSectionId: string; title?: string; path?: string }, SiteSectionView>("sites.updateSection");
const removeSection = action<SiteRef & { siteSectionId: string }, null>("sites.removeSection");
type SectionPointer = { type: "site-section"; siteSection: string };
const moveSection = action<SiteRef & { siteSectionId: string; position: { before?: SectionPointer; after?: SectionPointer } }, SiteSectionView>("sites.moveSection");
const updateSiteSpace = action<SiteRef & { siteSpaceId: string; path: string }, sites.SiteSpaceResource>("sites.updateSiteSpace");

const ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A section's or site space's path: one URL segment of letters, digits and inner `-`, `_` or `.`. */
const PATH = /^[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)*$/;

/** A field naming something by its id: a malformed one is 404 (as elsewhere on the page). */
function idOf(form: Record<string, string>, field: string): string {
  const value = form[field] ?? "";
  if (!ID.test(value)) throw notFound();
  return value;
}

function titleOf(form: Record<string, string>): string {
  const title = (form.title ?? "").trim();
  if (title.length < 2 || title.length > 128) throw badForm("A section's title ('title') is 2 to 128 characters.");
  return title;
}

function pathOf(form: Record<string, string>, label: string): string {
  const path = (form.path ?? "").trim();
  if (!PATH.test(path) || path.length > 100) throw badForm(`${label} ('path') is one segment of the address, at most 100 letters, digits and inner hyphens, e.g. api or v2.`);
  return path;
}

/** Handles the form's intent when it is one of the sections' and site spaces' (answers whether it did). */
export async function sectionForm(as: As, form: Record<string, string>, ref: SiteRef): Promise<boolean> {
  switch (form.intent) {
    case "add-section": {
      const spaceId = idOf(form, "space");
      const title = titleOf(form);
      await as(addSection, { ...ref, spaceId, title });
      return true;
    }
    case "update-section": {
      const siteSectionId = idOf(form, "section");
      const title = titleOf(form);
      const path = pathOf(form, "A section's path");
      await as(updateSection, { ...ref, siteSectionId, title, path });
      return true;
    }
    case "remove-section": {
      const siteSectionId = idOf(form, "section");
      if (form.confirm !== "yes") throw badForm("Tick the box confirming that the section (and its spaces' place in the site) is to be deleted ('confirm').");
      // removeSection answers 204 for any id: the section must be one of this site's first.
      const { items } = await as(listSections, { ...ref, limit: 100 });
      if (!items.some((s) => s.id === siteSectionId)) throw notFound();
      await as(removeSection, { ...ref, siteSectionId });
      return true;
    }
    case "move-section": {
      // One step up (before the section above) or down (after the section below), in the order the page lists them.
      const siteSectionId = idOf(form, "section");
      const direction = form.direction;
      if (direction !== "up" && direction !== "down") throw badForm("A section moves up or down ('direction').");
      const { items } = await as(listSections, { ...ref, limit: 100 });
      const at = items.findIndex((s) => s.id === siteSectionId);
      if (at < 0) throw notFound();
      const other = items[direction === "up" ? at - 1 : at + 1];
      // Already first (or last): nothing to move.
      if (!other) return true;
      const pointer: SectionPointer = { type: "site-section", siteSection: other.id };
      await as(moveSection, { ...ref, siteSectionId, position: direction === "up" ? { before: pointer } : { after: pointer } });
      return true;
    }
    case "add-space": {
      // The organization's space published in the site, in the section picked (when the site has sections).
      const spaceId = idOf(form, "space");
      await as(sites.addSiteSpace, form.section ? { ...ref, spaceId, sectionId: idOf(form, "section") } : { ...ref, spaceId });
      return true;
    }
    case "site-space-path": {
      const siteSpaceId = idOf(form, "siteSpace");
      await as(updateSiteSpace, { ...ref, siteSpaceId, path: pathOf(form, "A site space's path") });
      return true;
    }
    default:
      return false;
  }
}
