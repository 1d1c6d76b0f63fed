// Sign-in grants: local return paths only; a grant redeems once, in time, for the browser that started the sign-in.
import { hashToken } from "@docshelf/access";
import { SqliteStore } from "@docshelf/store";
import { collections, type SignInGrantDoc, type TokenDoc, type UserDoc } from "./models";
import type { Ctx, IdentityService } from "./service-types";
import { isLocalPath, mintSignInGrant, signInGrantActions, type RedeemedGrant } from "./sign-in-grants.actions";

describe("return paths a sign-in carries", () => {
  test.each(["/app", "/o/abc", "/s/x/guide/setup?edit=1"])("%p is local", (path) => expect(isLocalPath(path)).toBe(true));
  test.each(["", "//evil.example", "/\\evil.example", "https://evil.example/", "javascript:alert(1)", "evil", "/o/x\r\nA: b", `/${"a".repeat(3000)}`])(
    "%p is not",
    (path) => expect(isLocalPath(path)).toBe(false),
  );
});

describe("redeeming a grant", () => {
  const binding = "a".repeat(64);
  let service: IdentityService;
  const redeem = (grant: string, by = binding) => {
    const action = signInGrantActions.redeemSignInGrant as { handler: (this: IdentityService, ctx: Ctx<{ grant: string; binding: string }>) => Promise<RedeemedGrant> };
    return action.handler.call(service, { params: { grant, binding: by } } as Ctx<{ grant: string; binding: string }>);
  };

  beforeEach(async () => {
    const store = new SqliteStore({});
    service = {
      users: await store.collection<UserDoc>(collections.users),
      tokens: await store.collection<TokenDoc>(collections.tokens),
      signInGrants: await store.collection<SignInGrantDoc>(collections.signInGrants),
    } as unknown as IdentityService;
    const now = new Date().toISOString();
    await service.users.insert({ id: "u1", email: "u1@example.com", displayName: "U1", instanceAdmin: false, createdAt: now, updatedAt: now });
    await service.tokens.insert({ id: "t1", userId: "u1", hash: hashToken("dsk_one"), createdAt: now });
  });

  test("once: the user, the token's hash and the return path; the second time 403; only the hash is stored", async () => {
    const grant = await mintSignInGrant(service, { userId: "u1", tokenHash: hashToken("dsk_one"), binding, returnTo: "/o/x" });
    expect(grant).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(await service.signInGrants.find({}))).not.toContain(grant);
    expect(await redeem(grant)).toEqual({ user: { id: "u1", instanceAdmin: false }, tokenHash: hashToken("dsk_one"), returnTo: "/o/x" });
    await expect(redeem(grant)).rejects.toMatchObject({ code: 403 });
  });

  test("another browser's binding is refused, and uses the grant up", async () => {
    const grant = await mintSignInGrant(service, { userId: "u1", tokenHash: hashToken("dsk_one"), binding, returnTo: "/app" });
    await expect(redeem(grant, "b".repeat(64))).rejects.toMatchObject({ code: 403 });
    await expect(redeem(grant)).rejects.toMatchObject({ code: 403 });
  });

  test("an expired grant, an unknown one, or one whose token was revoked is refused", async () => {
    const grant = await mintSignInGrant(service, { userId: "u1", tokenHash: hashToken("dsk_one"), binding, returnTo: "/app" });
    await service.signInGrants.updateOne({ id: hashToken(grant) }, { $set: { expiresAt: Date.now() - 1 } });
    await expect(redeem(grant)).rejects.toMatchObject({ code: 403 });
    await expect(redeem("x".repeat(43))).rejects.toMatchObject({ code: 403 });
    const revoked = await mintSignInGrant(service, { userId: "u1", tokenHash: hashToken("dsk_one"), binding, returnTo: "/app" });
    await service.tokens.deleteOne({ id: "t1" });
    await expect(redeem(revoked)).rejects.toMatchObject({ code: 403 });
  });
});
