// Users and API tokens through HTTP, in every process mode.
import http from "node:http";
import { createUser, expectErrorBody, expectSchema, type RunningSystem } from "@docshelf/testkit";
import { MODES, start } from "./modes";

describe.each(MODES)("identity over %s", (mode) => {
  let sys: RunningSystem;
  beforeAll(async () => {
    sys = await start(mode);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  describe("authentication", () => {
    test("a request without a token is 401 in the one error body", async () => {
      const res = await sys.admin.as(undefined).get("/v1/user");
      expect(res.status).toBe(401);
      expectErrorBody(401, res.body);
    });

    test.each([
      ["a Basic scheme", "Basic dXNlcjpwYXNz"],
      ["a bare token", "dsk_abcdefghijkl"],
      ["an empty bearer", "Bearer "],
      ["a bearer with spaces inside", "Bearer abc def ghi jkl"],
    ])("a malformed Authorization header (%s) is 401", async (_what, header) => {
      const res = await sys.admin.as(undefined).request("GET", "/v1/user", undefined, { authorization: header });
      expect(res.status).toBe(401);
      expectErrorBody(401, res.body);
    });

    test("an unknown token is 401", async () => {
      const res = await sys.admin.as("dsk_this-token-was-never-issued-by-anyone").get("/v1/user");
      expect(res.status).toBe(401);
      expectErrorBody(401, res.body);
    });

    test("a revoked token is refused at once, even right after it was used", async () => {
      const user = await createUser(sys.admin);
      const extra = await user.api.post(`/v1/users/${user.id}/tokens`, { label: "to revoke" });
      expect(extra.status).toBe(201);
      // The Location is where the token is revoked.
      expect(new URL(extra.headers.get("location") ?? "").pathname).toBe(`/v1/users/${user.id}/tokens/${extra.body.id}`);
      const revocable = user.api.as(extra.body.token);
      expect((await revocable.get("/v1/user")).status).toBe(200); // now cached by the gateway
      const revoked = await user.api.delete(`/v1/users/${user.id}/tokens/${extra.body.id}`);
      expect(revoked.status).toBe(204);
      const after = await revocable.get("/v1/user");
      expect(after.status).toBe(401);
      expectErrorBody(401, after.body);
      expect((await user.api.get("/v1/user")).status).toBe(200); // the other token still works
    });

    test("on one keep-alive connection every request is authenticated by its own header, and a revocation still refuses the next one", async () => {
      const a = await createUser(sys.admin);
      const b = await createUser(sys.admin);
      const extra = await a.api.post(`/v1/users/${a.id}/tokens`, { label: "to revoke" });
      expect(extra.status).toBe(201);
      // One socket for every request below: the gateway remembers the connection's last header.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const ports = new Set<number>();
      const whoAmI = (authorization: string) =>
        new Promise<{ status: number; id?: string }>((resolve, reject) => {
          const req = http.get(`${sys.url}/v1/user`, { agent, headers: { authorization } }, (res) => {
            ports.add(res.socket.localPort ?? 0);
            let text = "";
            res.setEncoding("utf8");
            res.on("data", (chunk: string) => (text += chunk));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, id: (JSON.parse(text) as { id?: string }).id }));
          });
          req.on("error", reject);
        });
      try {
        expect(await whoAmI(`Bearer ${a.token}`)).toEqual({ status: 200, id: a.id });
        expect(await whoAmI(`Bearer ${b.token}`)).toEqual({ status: 200, id: b.id });
        expect(await whoAmI(`Bearer ${a.token}`)).toEqual({ status: 200, id: a.id });
        expect((await whoAmI(`Bearer ${a.token} and more`)).status).toBe(401);
        expect(await whoAmI(`Bearer ${extra.body.token}`)).toEqual({ status: 200, id: a.id });
        const revoked = await a.api.delete(`/v1/users/${a.id}/tokens/${extra.body.id}`);
        expect(revoked.status).toBe(204);
        // The same header again, on the same connection: refused, as on any other.
        expect((await whoAmI(`Bearer ${extra.body.token}`)).status).toBe(401);
        expect(await whoAmI(`Bearer ${b.token}`)).toEqual({ status: 200, id: b.id });
        expect(ports.size).toBe(1);
      } finally {
        agent.destroy();
      }
    });
  });

  describe("users", () => {
    test("GET /v1/user answers the caller as GitBook's User", async () => {
      const res = await sys.admin.get("/v1/user");
      expect(res.status).toBe(200);
      expectSchema("getAuthenticatedUser", 200, res.body);
      expect(res.body.email).toBe("admin@localhost");
    });

    test("the instance administrator creates a user; the email is unique", async () => {
      const email = `new-${Date.now()}@example.com`;
      const res = await sys.admin.post("/v1/users", { email, displayName: "New Person" });
      expect(res.status).toBe(201);
      expectSchema("getUserById", 200, res.body);
      expect(res.body).toMatchObject({ object: "user", email, displayName: "New Person" });
      const again = await sys.admin.post("/v1/users", { email: email.toUpperCase(), displayName: "Twin" });
      expect(again.status).toBe(409);
      expectErrorBody(409, again.body);
    });

    test.each([
      [{ displayName: "No Email" }, "email"],
      [{ email: "not-an-email", displayName: "X" }, "email"],
      [{ email: "ok@example.com" }, "displayName"],
      [{ email: "ok2@example.com", displayName: "x".repeat(101) }, "displayName"],
      [{ email: "ok3@example.com", displayName: "X", photoURL: "javascript:alert(1)" }, "photoURL"],
    ])("creating a user with bad input %j is 400 naming %s", async (body, field) => {
      const res = await sys.admin.post("/v1/users", body);
      expect(res.status).toBe(400);
      expectErrorBody(400, res.body);
      expect(res.body.error.message).toContain(field);
    });

    test("a user who is not an instance administrator cannot create users (403)", async () => {
      const user = await createUser(sys.admin);
      const res = await user.api.post("/v1/users", { email: `x-${Date.now()}@example.com`, displayName: "X" });
      expect(res.status).toBe(403);
      expectErrorBody(403, res.body);
    });

    test("GET /v1/users/{userId} answers a User; a missing one is 404", async () => {
      const user = await createUser(sys.admin);
      const res = await user.api.get(`/v1/users/${user.id}`);
      expect(res.status).toBe(200);
      expectSchema("getUserById", 200, res.body);
      expect(res.body.id).toBe(user.id);
      const missing = await user.api.get("/v1/users/doesnotexist000000000");
      expect(missing.status).toBe(404);
      expectErrorBody(404, missing.body);
    });

    test("another user's email is not shown to an ordinary user", async () => {
      const a = await createUser(sys.admin);
      const b = await createUser(sys.admin);
      const res = await a.api.get(`/v1/users/${b.id}`);
      expect(res.status).toBe(200);
      expect(res.body.email).toBeUndefined();
    });
  });

  describe("tokens", () => {
    test("a token is shown once, carries the dsk_ prefix and authenticates its user", async () => {
      const user = await createUser(sys.admin);
      expect(user.token).toMatch(/^dsk_[A-Za-z0-9_-]{43}$/);
      const me = await user.api.get("/v1/user");
      expect(me.status).toBe(200);
      expect(me.body.id).toBe(user.id);
    });

    test("a user cannot make or revoke tokens for someone else (403)", async () => {
      const a = await createUser(sys.admin);
      const b = await createUser(sys.admin);
      const make = await a.api.post(`/v1/users/${b.id}/tokens`, {});
      expect(make.status).toBe(403);
      expectErrorBody(403, make.body);
      const revoke = await a.api.delete(`/v1/users/${b.id}/tokens/whatever`);
      expect(revoke.status).toBe(403);
    });

    test("a token label over 100 characters is 400 naming label", async () => {
      const user = await createUser(sys.admin);
      const res = await user.api.post(`/v1/users/${user.id}/tokens`, { label: "l".repeat(101) });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain("label");
    });

    test("revoking a token that does not exist is 204", async () => {
      const user = await createUser(sys.admin);
      const res = await user.api.delete(`/v1/users/${user.id}/tokens/missing0000000000000`);
      expect(res.status).toBe(204);
    });

    test("a token for a user that does not exist is 404", async () => {
      const res = await sys.admin.post("/v1/users/missing0000000000000/tokens", {});
      expect(res.status).toBe(404);
      expectErrorBody(404, res.body);
    });
  });
});

