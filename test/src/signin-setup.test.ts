// First run in the browser: with no administrator (no ADMIN_TOKEN), start-up logs a one-time setup link
// that creates the first administrator with an email and password; ADMIN_TOKEN still makes one without it.
import { randomUUID } from "node:crypto";
import { startEmbedded, type RunningSystem } from "@docshelf/testkit";
import { Browser, csrfOf } from "./app-fixtures";
import { MODES, type Mode, startPrivate } from "./modes";
import { countStored } from "./store-snapshot";

const PASSWORD = "the first admin's password";

async function setupLink(sys: RunningSystem): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const match = /https?:\/\/[^\s"]+(\/sso\/setup\?token=[A-Za-z0-9_-]{43})/.exec((sys.logs ?? []).join(""));
    if (match) return match[1];
    if (Date.now() > deadline) throw new Error("no setup link logged");
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each(MODES)("first-run setup over %s", (mode: Mode) => {
  let sys: RunningSystem;

  beforeAll(async () => {
    const env = { ADMIN_TOKEN: "" };
    sys = await startPrivate(mode, env, { captureLogs: true });
  }, 120_000);

  afterAll(async () => {
    await sys?.stop();
  });

  test("the logged link creates the administrator once; they sign in with the password; the link is then dead", async () => {
    const link = await setupLink(sys);
    const browser = new Browser(sys.url);
    const page = await browser.get(link);
    expect(page.status).toBe(200);
    const token = /name="token" value="([^"]+)"/.exec(page.text)![1];
    const email = `admin-${randomUUID()}@example.com`;
    // No CSRF token: refused, and the link still works.
    expect((await browser.post("/sso/setup", { token, displayName: "Ada", email, password: PASSWORD })).status).toBe(403);
    const short = await browser.post("/sso/setup", { _csrf: csrfOf(page.text), token, displayName: "Ada", email, password: "short" });
    expect(short.status).toBe(400);
    expect(short.text).toMatch(/password/);
    const bad = await browser.post("/sso/setup", { _csrf: csrfOf(page.text), token, displayName: "Ada", email: "nope", password: PASSWORD });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/email/);
    const created = await browser.post("/sso/setup", { _csrf: csrfOf(page.text), token, displayName: "Ada", email, password: PASSWORD });
    expect(created.status).toBe(201);
    const admins = await countStored({ dataDir: sys.dataDir, mongoUrl: (sys as RunningSystem & { mongoUrl?: string }).mongoUrl }, "identity", "users", (d) => d.email === email && d.instanceAdmin === true);
    expect(admins).toBe(1);

    // Used: a second administrator cannot be made with it, nor with a replayed form.
    expect((await browser.get(link)).status).toBe(403);
    const again = await browser.post("/sso/setup", { _csrf: csrfOf(page.text), token, displayName: "Eve", email: `eve-${randomUUID()}@example.com`, password: PASSWORD });
    expect(again.status).toBe(403);

    // The administrator signs in to the app with the password.
    const signInPage = await browser.get("/app/sign-in");
    const href = /id="password-sign-in" href="([^"]+)"/.exec(signInPage.text)![1].replace(/&amp;/g, "&");
    const form = await browser.get(href);
    const app = /name="app" value="([^"]+)"/.exec(form.text)![1];
    const res = await browser.post("/sso/sign-in", { _csrf: csrfOf(form.text), app, return: "/app", email, password: PASSWORD });
    expect(res.status).toBe(303);
    expect((await browser.get(res.location!)).status).toBe(303);
    expect((await browser.get("/app")).status).toBe(200);
  });

  test("a made-up setup token is refused", async () => {
    const browser = new Browser(sys.url);
    expect((await browser.get(`/sso/setup?token=${"x".repeat(43)}`)).status).toBe(403);
  });
});

test("with ADMIN_TOKEN set, no setup link is logged and the token works", async () => {
  const sys = await startEmbedded({}, { captureLogs: true });
  try {
    expect((await sys.admin.get("/v1/user")).status).toBe(200);
    expect((sys.logs ?? []).join("")).not.toContain("/sso/setup");
  } finally {
    await sys.stop();
  }
});
