// Fixtures of the app suites: a browser-like client keeping the app's cookies, sign-in with an API
// token, forms posted with the page's CSRF token, and a world of two organizations.
import type { RunningSystem, TestUser } from "@docshelf/testkit";
import { addMember, createOrg, createSpace, createUser } from "@docshelf/testkit";
import { addPages } from "./sites-serve-fixtures";

export interface Page {
  status: number;
  headers: Headers;
  text: string;
  location: string | null;
}

/** What a browser would do with cookies, without following redirects (so each hop can be checked). */
export class Browser {
  readonly cookies = new Map<string, string>();
  /** Sent with every request (e.g. X-Forwarded-For, to be another client behind a trusted proxy). */
  readonly headers: Record<string, string> = {};
  constructor(readonly base: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  private keep(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(method: string, path: string, form?: Record<string, string>): Promise<Page> {
    const headers: Record<string, string> = { ...this.headers };
    if (this.cookies.size) headers.cookie = this.cookieHeader();
    const init: RequestInit = { method, headers, redirect: "manual" };
    if (form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      init.body = new URLSearchParams(form).toString();
    }
    const res = await fetch(this.base + path, init);
    this.keep(res);
    return { status: res.status, headers: res.headers, text: await res.text(), location: res.headers.get("location") };
  }

  get(path: string): Promise<Page> {
    return this.request("GET", path);
  }

  post(path: string, form: Record<string, string>): Promise<Page> {
    return this.request("POST", path, form);
  }

  /** Opens a page and posts its form (the one whose action is `action`) with these fields and the page's CSRF token. */
  async submit(pagePath: string, action: string, fields: Record<string, string>): Promise<Page> {
    const page = await this.get(pagePath);
    if (page.status !== 200) throw new Error(`${pagePath}: ${page.status}`);
    return this.post(action, { _csrf: csrfOf(page.text), ...fields });
  }

  /** Submits each form on `pagePath` and expects a 400 page saying its text (the field it names). */
  async refused(pagePath: string, forms: Array<[Record<string, string>, string]>): Promise<void> {
    for (const [fields, says] of forms) {
      const answer = await this.submit(pagePath, pagePath, fields);
      expect(answer.status).toBe(400);
      expect(answer.text).toContain(says);
    }
  }
}

export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error("no CSRF token in the page");
  return match[1];
}

/** Signs in through the form: GET the form (pre-session cookie + CSRF), POST the token. */
export async function signIn(browser: Browser, token: string, returnTo?: string): Promise<Page> {
  const form = await browser.get(`/app/sign-in${returnTo !== undefined ? `?return=${encodeURIComponent(returnTo)}` : ""}`);
  const fields: Record<string, string> = { _csrf: csrfOf(form.text), token };
  if (returnTo !== undefined) fields.return = returnTo;
  return browser.post("/app/sign-in", fields);
}

export const XSS_TITLE = `<img src=x onerror="alert('title')">Tricky`;
export const XSS_MARKDOWN = `# Hello <script>alert('body')</script>\n\nA [link](javascript:alert('link')) and <img src=x onerror=alert('img')>.\n\nPlain **bold** text.\n`;

const PETS = {
  openapi: "3.0.3",
  info: { title: "Pets", version: "1.0.0" },
  paths: { "/pets": { get: { responses: { "200": { description: "ok" } } } } },
};

export interface AppWorld {
  alice: TestUser;
  bob: TestUser;
  orgId: string;
  bobOrgId: string;
  spaceId: string;
  /** urls.app of every resource type, as the API returned them to alice. */
  urls: { org: string; space: string; page: string; xssPage: string; changeRequest: string; site: string; collection: string; revision: string; openapi: string };
}

export async function appWorld(sys: RunningSystem): Promise<AppWorld> {
  const alice = await createUser(sys.admin, { displayName: "Alice" });
  const bob = await createUser(sys.admin, { displayName: "Bob" });
  const org = await createOrg(alice.api, "Alice's org");
  const bobOrg = await createOrg(bob.api, "Bob's org");
  const space = await createSpace(alice.api, org.id, { title: "Handbook" });
  await addPages(sys, space.id, [
    { title: "Welcome", markdown: "# Welcome\n\nThe **handbook** starts here.\n" },
    { title: XSS_TITLE, markdown: XSS_MARKDOWN },
  ]);
  const welcome = await alice.api.get(`/v1/spaces/${space.id}/content/path/welcome`);
  if (welcome.status !== 200) throw new Error(`welcome page: ${welcome.status}`);
  const pages = await alice.api.get(`/v1/spaces/${space.id}/content`);
  const xss = (pages.body.pages as Array<{ title: string; urls?: { app: string } }>).find((p) => p.title === XSS_TITLE);
  const cr = await alice.api.post(`/v1/spaces/${space.id}/change-requests`, { subject: "Improve the welcome" });
  if (cr.status !== 201 && cr.status !== 200) throw new Error(`change request: ${cr.status} ${JSON.stringify(cr.body)}`);
  const site = await alice.api.post(`/v1/orgs/${org.id}/sites`, { title: "Docs", spaces: [space.id] });
  if (site.status !== 201) throw new Error(`site: ${site.status} ${JSON.stringify(site.body)}`);
  const collection = await alice.api.post(`/v1/orgs/${org.id}/collections`, { title: "Guides" });
  if (collection.status !== 201) throw new Error(`collection: ${collection.status} ${JSON.stringify(collection.body)}`);
  const moved = await alice.api.post(`/v1/spaces/${space.id}/move`, { parent: collection.body.id });
  if (moved.status >= 300) throw new Error(`move: ${moved.status} ${JSON.stringify(moved.body)}`);
  const spec = await alice.api.post(`/v1/orgs/${org.id}/openapi`, { slug: "pets", source: { text: JSON.stringify(PETS) } });
  if (spec.status !== 201) throw new Error(`openapi: ${spec.status} ${JSON.stringify(spec.body)}`);
  return {
    alice,
    bob,
    orgId: org.id,
    bobOrgId: bobOrg.id,
    spaceId: space.id,
    urls: {
      org: org.body.urls.app,
      space: space.body.urls.app,
      page: welcome.body.urls.app,
      xssPage: xss!.urls!.app,
      changeRequest: cr.body.urls.app,
      site: site.body.urls.app,
      collection: collection.body.urls.app,
      revision: pages.body.urls.app,
      openapi: spec.body.urls.app,
    },
  };
}

/** The app world's people signed in as browsers: Alice (its admin), a reader of her organization, and Bob (another organization's). */
export interface SignedIn {
  reader: TestUser;
  alice: Browser;
  readerBrowser: Browser;
  bob: Browser;
}

export async function signedIn(sys: RunningSystem, w: AppWorld): Promise<SignedIn> {
  const reader = await createUser(sys.admin, { displayName: "Reader" });
  await addMember(w.alice.api, w.orgId, reader.email, "read");
  const [alice, readerBrowser, bob] = [new Browser(sys.url), new Browser(sys.url), new Browser(sys.url)];
  await Promise.all([signIn(alice, w.alice.token), signIn(readerBrowser, reader.token), signIn(bob, w.bob.token)]);
  return { reader, alice, readerBrowser, bob };
}

/** The path of an absolute `urls.app` (the app's links are this origin's). */
export function pathOf(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}
