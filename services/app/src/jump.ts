// Two small reads for every signed-in page's script (client/shell.ts), each usable without it:
// - `GET /app/jump[?q=&space=]`: Ctrl/Cmd-K's jump to a space or page. The viewer's spaces in all their
//   organizations and, with `space`, that space's pages; a page listing the matches (a form, no script needed),
//   or with `format=json` the whole list for the dialog, which filters it as one types.
// - `GET /s/{space}/~/mentions?q=`: @ suggestions of a comment box: members of the space's organization (the
//   API's member list, as the viewer: full members only) who can read the space, matching `q`.
// Everything is read as the viewer, so the API's rules decide: another organization's space is a 404.
import { atLeast } from "@docshelf/access";
import * as contentApi from "@docshelf/contracts/content";
import * as orgs from "@docshelf/contracts/orgs";
import type { As } from "./admin";
import { json, page, type AppAnswer, type AppRequest } from "./http";
import { jumpPage, type JumpItem } from "./pages/jump";
import type { Viewer } from "./pages/layout";
import type { TreeNode } from "./pages/space";
import { badForm } from "./page-error";

const ID = /^[A-Za-z0-9_-]{1,64}$/;
/** The most organizations, spaces and pages one jump list holds. */
export const JUMP_LIMITS = { organizations: 50, spacesPerOrganization: 100, pages: 2000, shown: 50 };
/** The most suggestions one @ answers, and the members read to find them. */
export const MENTION_LIMITS = { suggestions: 8, read: 50, query: 64 };


/** The viewer's spaces, in every organization they belong to. */
async function spacesOf(as: As): Promise<JumpItem[]> {
  const mine = await as(orgs.list, { limit: JUMP_LIMITS.organizations });
  const lists = await Promise.all(
    mine.items.map((org) =>
      as(contentApi.listSpaces, { organizationId: org.id, limit: JUMP_LIMITS.spacesPerOrganization }).then(
        (l) => l.items.map((s): JumpItem => ({ kind: "space", title: s.title || "Untitled", where: org.title, url: `/s/${encodeURIComponent(s.id)}` })),
        () => [],
      ),
    ),
  );
  return lists.flat();
}

/** A space's pages (documents, in tree order), after getSpace answered the viewer. */
async function pagesOf(as: As, spaceId: string, treeOf: (space: contentApi.SpaceResource) => Promise<TreeNode[]>): Promise<JumpItem[]> {
  const space = await as(contentApi.getSpace, { spaceId });
  const items: JumpItem[] = [];
  const walk = (nodes: TreeNode[]) => {
    for (const node of nodes) {
      if (items.length >= JUMP_LIMITS.pages) return;
      if (node.type === "document") items.push({ kind: "page", title: node.title || "Untitled", where: space.title, url: `/s/${encodeURIComponent(space.id)}/${node.path}` });
      walk(node.pages ?? []);
    }
  };
  walk(await treeOf(space));
  return items;
}

/** Whether every word of the query is in the item's title or where it is (case-insensitive). */
export function matches(item: JumpItem, query: string): boolean {
  const text = `${item.title} ${item.where}`.toLowerCase();
  return query.toLowerCase().split(/\s+/).filter(Boolean).every((word) => text.includes(word));
}

/** JSON routes answer their refusals in JSON: a space one may not see is a 404, as a page's would be. */
async function jsonRefusals(run: () => Promise<AppAnswer>): Promise<AppAnswer> {
  try {
    return await run();
  } catch (err) {
    const code = (err as { code?: unknown; status?: unknown }).code ?? (err as { status?: unknown }).status;
    if (code === 404 || code === 403 || code === 401) return json(404, { error: "There is nothing here, or you cannot see it." });
    if (code === 400 || code === 422) return json(400, { error: (err as Error).message });
    throw err;
  }
}

/** `GET /app/jump`: the jump list (JSON with `format=json`), or a page of the matches. */
export async function jumpRoute(as: As, req: AppRequest, viewer: Viewer, treeOf: (space: contentApi.SpaceResource) => Promise<TreeNode[]>): Promise<AppAnswer> {
  const query = (req.query.q ?? "").trim().slice(0, 200);
  const spaceId = req.query.space ?? "";
  if (spaceId && !ID.test(spaceId)) {
    if (req.query.format === "json") return json(400, { error: "'space' is not a space's id." });
    throw badForm("'space' is not a space's id.");
  }
  const read = () => Promise.all([spacesOf(as), spaceId ? pagesOf(as, spaceId, treeOf) : []]);
  if (req.query.format === "json")
    return jsonRefusals(async () => {
      const [spaces, pages] = await read();
      return json(200, { spaces, pages });
    });
  const [spaces, pages] = await read();
  const all = [...pages, ...spaces];
  const found = query ? all.filter((item) => matches(item, query)) : spaces;
  return page(200, jumpPage(viewer, query, spaceId, found.slice(0, JUMP_LIMITS.shown), found.length));
}

/** `GET /s/{space}/~/mentions?q=`: `{items: [{id, name}]}`, members who can read the space, matching `q` (never the asker: a mention of oneself notifies nobody). */
export function mentionsRoute(as: As, req: AppRequest, spaceId: string, askerId: string): Promise<AppAnswer> {
  return jsonRefusals(async () => {
    const query = (req.query.q ?? "").trim().toLowerCase();
    if (query.length > MENTION_LIMITS.query) return json(400, { error: `'q' is at most ${MENTION_LIMITS.query} characters.` });
    // The viewer must see the space (a 404 otherwise); its organization's member list is the API's, as the viewer.
    const space = await as(contentApi.getSpace, { spaceId });
    const listed = await as(orgs.listMembers, { organizationId: space.organization, limit: MENTION_LIMITS.read, ...(query ? { search: query } : {}) });
    const candidates = listed.items.filter((m) => !m.disabled && m.user.id !== askerId).slice(0, MENTION_LIMITS.read);
    // Only those who can read this space (a member may be kept out of it, or a guest without it).
    const access = await Promise.all(candidates.map((m) => as(contentApi.spaceAccess, { spaceId, userId: m.user.id })));
    const items = candidates
      .filter((_, i) => access[i].exists && access[i].organizationId === space.organization && atLeast(access[i].role, "read"))
      .slice(0, MENTION_LIMITS.suggestions)
      .map((m) => ({ id: m.user.id, name: m.user.displayName }));
    return json(200, { items });
  });
}
