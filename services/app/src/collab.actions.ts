// `app.collab`: whether a WebSocket upgrade to the block editor's live collaboration (the gateway's relay,
// services/gateway/src/collab.ts) may open, asked with the upgrade's session cookie and the CSRF token the
// editor offers. The same rules as the editor's page and its saves: a signed-in session, the page's CSRF
// token, the space's edit permission as the API gives it to the user, a change request still open or a
// draft, a page of it. Answers the room (space, change request and page ids: a page's editors meet there
// whatever its path becomes) with the user's name and colour for presence, or the refusal's status.
import { call } from "@docshelf/contracts/action";
import * as changeRequests from "@docshelf/contracts/change-requests";
import * as contentApi from "@docshelf/contracts/content";
import * as identity from "@docshelf/contracts/identity";
import { parseCookies } from "./http";
import { SESSION_COOKIE, csrfMatches } from "./sessions";
import type { AppActions, AppService, Ctx } from "./service-types";

/** How many colours the editor's stylesheet has for other people's cursors (`.collab-c0` …). */
export const COLLAB_COLOURS = 8;

export type CollabAnswer = { status: 200; room: string; userId: string; name: string; color: number } | { status: 400 | 401 | 403 | 404 | 409; message: string };

interface CollabParams {
  spaceId: string;
  changeRequest: string;
  pagePath: string;
  cookie?: string;
  csrf: string;
}

/** A stable colour of a user: the same in every editor and every session. */
export function colourOf(userId: string): number {
  let h = 2166136261;
  for (let i = 0; i < userId.length; i++) h = Math.imul(h ^ userId.charCodeAt(i), 16777619);
  return (h >>> 0) % COLLAB_COLOURS;
}

function decodedPath(raw: string): string | null {
  try {
    const parts = raw.split("/").map((s) => decodeURIComponent(s));
    return parts.some((p) => p === "" || p === "." || p === "..") ? null : parts.join("/");
  } catch {
    return null;
  }
}

export const collabActions: AppActions = {
  collab: {
    visibility: "public",
    params: {
      spaceId: { type: "string", min: 1, max: 64 },
      changeRequest: { type: "string", pattern: /^[1-9][0-9]{0,8}$/ },
      pagePath: { type: "string", min: 1, max: 2048 },
      cookie: { type: "string", optional: true, max: 16384 },
      csrf: { type: "string", max: 256 },
    },
    async handler(this: AppService, ctx: Ctx<CollabParams>): Promise<CollabAnswer> {
      const { spaceId, changeRequest, csrf } = ctx.params;
      const who = await this.signedIn(ctx, parseCookies(ctx.params.cookie)[SESSION_COOKIE]);
      if (!who) return { status: 401, message: "Sign in to edit this page." };
      if (!csrfMatches(who.secret, csrf)) return { status: 403, message: "The page's token does not match this session; reload the editor." };
      const pagePath = decodedPath(ctx.params.pagePath);
      if (!pagePath) return { status: 404, message: "Not found." };
      try {
        const space = await this.as(ctx, who.caller, contentApi.getSpace, { spaceId });
        if ((space.permissions as Record<string, unknown> | undefined)?.edit !== true) return { status: 403, message: "Only people who may edit this space edit its pages live." };
        const cr = await this.as(ctx, who.caller, changeRequests.get, { spaceId, changeRequestId: changeRequest });
        if (cr.status !== "open" && cr.status !== "draft") return { status: 409, message: `This change request is ${cr.status}: its pages are no longer edited.` };
        const page = await this.as(ctx, who.caller, changeRequests.getPageByPath, { spaceId, changeRequestId: cr.id, pagePath, format: "markdown" });
        const users = await call(ctx, identity.getMany, { ids: [who.caller.id] }).catch(() => ({}) as Record<string, identity.User>);
        const name = users[who.caller.id]?.displayName || "Someone";
        return { status: 200, room: `${space.id}/${cr.id}/${page.id}`, userId: who.caller.id, name: name.slice(0, 80), color: colourOf(who.caller.id) };
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        // Another organization's space, a change request or page not there, or not readable: all one "not found".
        if (code === 400 || code === 401 || code === 403 || code === 404) return { status: 404, message: "Not found." };
        throw err;
      }
    },
  },
};
