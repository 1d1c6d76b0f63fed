// Issue 36, findings 8 and 9, through HTTP in every process mode. The app (/app, /o, /s, sign-in) and
// SSO answer only on the instance's own host: on a site's hostname (a name its organization controls)
// they are the site's paths (its page or its 404), on any other foreign name 404, never the sign-in form
// or a redirect to it. API answers carry Cache-Control: no-store. A site's redirect to another website,
// served on the instance's own host, shows where it goes instead of redirecting, until the organization
// verifies a domain.
import { request } from "node:http";
import { createOrg, createSpace, createUser, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { Browser, signIn } from "./app-fixtures";
import { MODES, start } from "./modes";
import { addPages, unique, type Fetched } from "./sites-serve-fixtures";

/** One request through node:http with any Host header and method. */
function raw(baseUrl: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Fetched> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe.each(MODES)("tenant-controlled hostnames and API caching over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  let orgId: string;
  let hostname: string;
  let session: Browser;
  let siteId: string;

  beforeAll(async () => {
    sys = await start(mode);
    owner = await createUser(sys.admin, { displayName: "Evil B" });
    orgId = (await createOrg(owner.api, "Evil B")).id;
    const spaceId = (await createSpace(owner.api, orgId, { title: "Docs" })).id;
    await addPages(sys, spaceId, [{ title: "Welcome", markdown: "Welcome to B's docs.\n" }]);
    const site = await owner.api.post(`/v1/orgs/${orgId}/sites`, { title: "B docs", spaces: [spaceId] });
    expect(site.status).toBe(201);
    expect((await owner.api.post(`/v1/orgs/${orgId}/sites/${site.body.id}/publish`)).status).toBe(200);
    siteId = site.body.id;
    hostname = `${unique("docs")}.evil-b.example`;
    expect((await owner.api.patch(`/v1/orgs/${orgId}/sites/${site.body.id}`, { hostname })).status).toBe(200);
    session = new Browser(sys.url);
    await signIn(session, owner.token);
  }, 120_000);

  afterAll(async () => {
    await sys?.stop();
  });

  const APP_PATHS = ["/app", "/app/sign-in", "/app/sign-in?return=%2Fapp", `/o/${"x".repeat(20)}`, "/s/anything/~/changes/1", "/app/sso/complete", "/sso", "/sso/saml/none/start"];

  test("on a site's hostname the app and SSO paths are the site's 404, never the sign-in form or a redirect to it", async () => {
    const root = await raw(sys.url, "GET", "/", { Host: hostname });
    expect(root.status).toBe(200);
    expect(root.text).toContain("B docs");
    for (const path of APP_PATHS) {
      const variants: Array<Record<string, string>> = [{ Host: hostname }, { Host: `${hostname}:443` }, { Host: hostname, cookie: session.cookieHeader() }];
      for (const headers of variants) {
        const res = await raw(sys.url, "GET", path, headers);
        expect([path, res.status]).toEqual([path, 404]);
        expect(res.headers.location).toBeUndefined();
        expect(res.text).not.toContain('name="token"');
        expect(res.text).not.toContain('name="_csrf"');
      }
    }
    // A form posted there is refused too (the app never reads it).
    const posted = await raw(sys.url, "POST", "/app/sign-in", { Host: hostname, "content-type": "application/x-www-form-urlencoded" }, "token=x&_csrf=y");
    expect(posted.status).toBe(404);
    expect(posted.headers["set-cookie"]).toBeUndefined();
  });

  test("on a foreign name no site holds, the app and SSO are 404 as well; the instance's own host still serves them", async () => {
    for (const path of APP_PATHS) {
      const res = await raw(sys.url, "GET", path, { Host: `${unique("nobody")}.example.test` });
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.text).not.toContain('name="token"');
    }
    const own = await raw(sys.url, "GET", "/app/sign-in");
    expect(own.status).toBe(200);
    expect(own.text).toContain('name="token"');
    expect((await raw(sys.url, "GET", "/app")).status).toBe(303);
    expect((await session.get("/app")).status).toBe(200);
    // The API stays reachable on any host.
    const api = await raw(sys.url, "GET", "/v1/user", { Host: hostname, authorization: `Bearer ${owner.token}` });
    expect(api.status).toBe(200);
  });

  test("API answers carry Cache-Control: no-store: authenticated, refused and failed ones", async () => {
    const answers = [
      await owner.api.get("/v1/user"),
      await owner.api.get(`/v1/orgs/${orgId}`),
      await owner.api.get(`/v1/orgs/${orgId}/members`),
      await owner.api.get("/v1/orgs/nope"),
      await owner.api.post("/v1/orgs", { title: 5 }),
      await sys.admin.as(undefined).get("/v1/user"),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 404, 400, 401]);
    for (const a of answers) expect(a.headers.get("cache-control")).toBe("no-store");
  });

  test("a site's external redirect on the instance's host is a page naming the destination until the organization verifies a domain", async () => {
    const destination = "https://login.evil-b.example/account?next=%2F";
    const made = await owner.api.post(`/v1/orgs/${orgId}/sites/${siteId}/redirects`, { source: "/go/*", destination: { kind: "external", url: destination }, captureWildcard: false });
    expect(made.status).toBe(201);
    const internal = await owner.api.post(`/v1/orgs/${orgId}/sites/${siteId}/redirects`, { source: "/home", destination: { kind: "external", url: `${sys.url}/sites/${siteId}` } });
    expect(internal.status).toBe(201);
    const leaving = await raw(sys.url, "GET", `/sites/${siteId}/go/now`);
    expect(leaving.status).toBe(200);
    expect(leaving.headers.location).toBeUndefined();
    expect(leaving.text).toContain("This link leaves B docs");
    expect(leaving.text).toContain(`<a class="external-destination" href="https://login.evil-b.example/account?next=%2F" rel="noopener noreferrer nofollow">`);
    expect(leaving.text).toContain('<meta name="robots" content="noindex, nofollow">');
    // A destination on the instance's own host is no open redirect: followed as before.
    const home = await raw(sys.url, "GET", `/sites/${siteId}/home`);
    expect([307, 308]).toContain(home.status);
    // On the site's own hostname the redirect is the organization's domain's business: followed.
    const onHost = await raw(sys.url, "GET", "/go/now", { Host: hostname });
    expect([307, 308]).toContain(onHost.status);
    expect(onHost.headers.location).toBe(destination);
    // Once the organization holds a verified domain, the instance's host follows it too.
    expect((await sys.admin.post(`/v1/orgs/${orgId}/domains/${unique("b")}.example.com/approve`, {})).status).toBe(200);
    const followed = await raw(sys.url, "GET", `/sites/${siteId}/go/now`);
    expect([307, 308]).toContain(followed.status);
    expect(followed.headers.location).toBe(destination);
  });
});
