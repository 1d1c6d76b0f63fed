import { UnauthorizedError } from "@docshelf/errors";
import {
  grantedRoles,
  grantKey,
  grantsTo,
  grantUpdate,
  invitees,
  MAX_GRANTS,
  MembershipCache,
  ROLES,
  atLeast,
  callerOf,
  collectionPermissions,
  effectiveRole,
  hashToken,
  memberRoleOf,
  organizationPermissions,
  rank,
  spacePermissions,
  strongest,
  type AccessFacts,
  type Membership,
  type Role,
  type RoleOrGuest,
} from "./index";

describe("roles", () => {
  test("roles rank admin > create > review > edit > comment > read > guest", () => {
    expect(ROLES).toEqual(["admin", "create", "review", "edit", "comment", "read"]);
    const ranks = [...ROLES, null].map((role) => rank(role));
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    expect(new Set(ranks).size).toBe(ranks.length);
    expect(rank(undefined)).toBe(0);
  });

  test("atLeast holds for the role itself and every stronger one only", () => {
    ROLES.forEach((min, i) => {
      ROLES.forEach((role, j) => expect(atLeast(role, min)).toBe(j <= i));
      expect(atLeast(null, min)).toBe(false);
      expect(atLeast(undefined, min)).toBe(false);
    });
  });

  test("strongest picks the highest role and is null when there is none", () => {
    expect(strongest("read", "edit", null, undefined, "comment")).toBe("edit");
    expect(strongest(null, undefined)).toBeNull();
    expect(strongest()).toBeNull();
  });
});

describe("effectiveRole", () => {
  const table: Array<[string, AccessFacts, RoleOrGuest]> = [
    // Non-members see only open content.
    ["a non-member reads public content", { visibility: "public" }, "read"],
    ["a non-member reads unlisted content", { visibility: "unlisted" }, "read"],
    ["a non-member gets nothing on private content", { visibility: "private" }, null],
    ["a non-member gets nothing when visibility is unknown", {}, null],
    ["a non-member gets nothing from default levels", { visibility: "private", spaceLevel: "edit", collectionLevels: ["admin"] }, null],
    // Organization admins are admins everywhere.
    ["an admin member is admin on private content", { memberRole: "admin", visibility: "private" }, "admin"],
    ["an admin member is admin despite a weaker space level", { memberRole: "admin", spaceLevel: "read" }, "admin"],
    ["an admin member is admin on public content", { memberRole: "admin", visibility: "public" }, "admin"],
    // Guests: only teams and open visibility.
    ["a guest gets nothing on private content", { memberRole: null, visibility: "private" }, null],
    ["a guest does not get the space level", { memberRole: null, spaceLevel: "edit", visibility: "private" }, null],
    ["a guest does not get a collection level", { memberRole: null, collectionLevels: ["review"] }, null],
    ["a guest gets a team's grant", { memberRole: null, teamRoles: ["comment"], spaceLevel: "admin" }, "comment"],
    ["a guest reads public content", { memberRole: null, visibility: "public", spaceLevel: "edit" }, "read"],
    ["a guest gets the stronger of team and open visibility", { memberRole: null, teamRoles: ["edit"], visibility: "unlisted" }, "edit"],
    // Members: the strongest of their role, the default level and their teams.
    ["a member keeps their own role without default levels", { memberRole: "comment", visibility: "private" }, "comment"],
    ["a member gets a stronger space level", { memberRole: "read", spaceLevel: "edit" }, "edit"],
    ["a member keeps their role over a weaker space level", { memberRole: "review", spaceLevel: "read" }, "review"],
    ["a member gets a team grant stronger than the rest", { memberRole: "read", spaceLevel: "comment", teamRoles: ["read", "create"] }, "create"],
    ["a member reads public content even with the weakest role", { memberRole: "read", visibility: "public" }, "read"],
    // Default level: the space's own beats the collections', else the nearest collection that sets one.
    ["the space level beats collection levels", { memberRole: "read", spaceLevel: "comment", collectionLevels: ["admin", "edit"] }, "comment"],
    ["the nearest collection level wins", { memberRole: "read", collectionLevels: ["comment", "admin"] }, "comment"],
    ["null collection levels inherit from further out", { memberRole: "read", collectionLevels: [null, null, "review"] }, "review"],
    ["a null space level inherits from the collections", { memberRole: "read", spaceLevel: null, collectionLevels: [null, "edit"] }, "edit"],
    ["no levels anywhere leaves the member's role", { memberRole: "read", spaceLevel: null, collectionLevels: [null] }, "read"],
  ];

  test.each(table)("%s", (_what, facts, expected) => {
    expect(effectiveRole(facts)).toBe(expected);
  });
});

describe("permissions", () => {
  const roles: RoleOrGuest[] = [...ROLES, null];

  test("space permissions grow with the role", () => {
    const expected: Record<string, Role | "none"> = {
      view: "read",
      access: "read",
      comment: "comment",
      edit: "edit",
      triggerGitSync: "edit",
      review: "review",
      merge: "review",
      admin: "admin",
      viewInviteLinks: "admin",
      installIntegration: "admin",
    };
    for (const role of roles) {
      const permissions = spacePermissions(role);
      expect(Object.keys(permissions).sort()).toEqual(Object.keys(expected).sort());
      for (const [name, min] of Object.entries(expected)) {
        expect([role, name, permissions[name as keyof typeof permissions]]).toEqual([role, name, atLeast(role, min as Role)]);
      }
    }
  });

  test("a reader may view but not comment, edit or administer a space", () => {
    expect(spacePermissions("read")).toEqual({
      view: true,
      access: true,
      admin: false,
      viewInviteLinks: false,
      edit: false,
      triggerGitSync: false,
      comment: false,
      merge: false,
      review: false,
      installIntegration: false,
    });
  });

  test("an editor may edit and comment but not review or merge", () => {
    expect(spacePermissions("edit")).toMatchObject({ view: true, comment: true, edit: true, triggerGitSync: true, review: false, merge: false, admin: false });
  });

  test("nobody without a role may do anything with a space or collection", () => {
    expect(Object.values(spacePermissions(null)).some(Boolean)).toBe(false);
    expect(Object.values(collectionPermissions(null)).some(Boolean)).toBe(false);
  });

  test("collection permissions: view from read, create from create, admin only for admins", () => {
    expect(collectionPermissions("read")).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
    expect(collectionPermissions("review")).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
    expect(collectionPermissions("create")).toEqual({ view: true, admin: false, viewInviteLinks: false, create: true });
    expect(collectionPermissions("admin")).toEqual({ view: true, admin: true, viewInviteLinks: true, create: true });
  });

  test("organization permissions of a non-member are all false", () => {
    expect(Object.values(organizationPermissions(undefined)).some(Boolean)).toBe(false);
  });

  test("a guest may view the organization but not list its members or teams", () => {
    expect(organizationPermissions(null)).toEqual({
      view: true,
      access: true,
      admin: false,
      ownTeam: false,
      createContent: false,
      createOpenAPISpec: false,
      ingestConversations: false,
      viewBilling: false,
      listMembers: false,
      listTeams: false,
      listIntegrations: false,
      listInstallations: false,
      installIntegration: false,
    });
  });

  test("a reader may list members and teams but not create content", () => {
    expect(organizationPermissions("read")).toMatchObject({ view: true, listMembers: true, listTeams: true, createContent: false, listIntegrations: false, admin: false });
  });

  test("a creator may create content and list integrations but not administer", () => {
    expect(organizationPermissions("create")).toMatchObject({
      createContent: true,
      createOpenAPISpec: true,
      listIntegrations: true,
      admin: false,
      viewBilling: false,
      ownTeam: false,
      listInstallations: false,
      installIntegration: false,
    });
  });

  test("an admin has every organization permission", () => {
    expect(Object.values(organizationPermissions("admin")).every(Boolean)).toBe(true);
  });
});

describe("memberRoleOf", () => {
  test("a membership gives its role, a guest null and a non-member undefined", () => {
    expect(memberRoleOf({ exists: true, member: true, role: "edit" })).toBe("edit");
    expect(memberRoleOf({ exists: true, member: true, role: null })).toBeNull();
    expect(memberRoleOf({ exists: true, member: false, role: null })).toBeUndefined();
  });
});

describe("MembershipCache", () => {
  const member = (role: RoleOrGuest): Membership => ({ exists: true, member: true, role });

  afterEach(() => jest.restoreAllMocks());

  test("answers from the cache within the TTL, per organization and user", async () => {
    const fetch = jest.fn(async (org: string, user: string) => member(org === "o1" && user === "u1" ? "admin" : "read"));
    const cache = new MembershipCache(fetch, 10_000);
    expect(await cache.get("o1", "u1")).toEqual(member("admin"));
    expect(await cache.get("o1", "u1")).toEqual(member("admin"));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(await cache.get("o1", "u2")).toEqual(member("read"));
    expect(await cache.get("o2", "u1")).toEqual(member("read"));
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  test("fetches again once the TTL has passed", async () => {
    const now = jest.spyOn(Date, "now").mockReturnValue(1_000_000);
    const fetch = jest.fn(async () => member("read"));
    const cache = new MembershipCache(fetch, 10_000);
    await cache.get("o1", "u1");
    now.mockReturnValue(1_000_000 + 9_999);
    await cache.get("o1", "u1");
    expect(fetch).toHaveBeenCalledTimes(1);
    now.mockReturnValue(1_000_000 + 10_000);
    await cache.get("o1", "u1");
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  test("dropOrganization forces a refetch for that organization only", async () => {
    let role: RoleOrGuest = "read";
    const fetch = jest.fn(async () => member(role));
    const cache = new MembershipCache(fetch);
    await cache.get("o1", "u1");
    await cache.get("o2", "u1");
    role = "admin";
    cache.dropOrganization("o1");
    expect(await cache.get("o1", "u1")).toEqual(member("admin"));
    expect(await cache.get("o2", "u1")).toEqual(member("read"));
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  test("dropping an organization whose id is a prefix of another's leaves the other cached", async () => {
    const fetch = jest.fn(async () => member("read"));
    const cache = new MembershipCache(fetch);
    await cache.get("org1", "u1");
    cache.dropOrganization("org");
    await cache.get("org1", "u1");
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  test("a membership fetched while its organization is dropped is not kept", async () => {
    const answers: Array<(m: Membership) => void> = [];
    const fetch = jest.fn(() => new Promise<Membership>((resolve) => answers.push(resolve)));
    const cache = new MembershipCache(fetch);
    const stale = cache.get("o1", "u1");
    await Promise.resolve();
    cache.dropOrganization("o1"); // the membership changed while the first answer was on its way
    answers[0](member("admin"));
    expect(await stale).toEqual(member("admin"));
    const fresh = cache.get("o1", "u1");
    await Promise.resolve();
    expect(fetch).toHaveBeenCalledTimes(2);
    answers[1](member(null));
    expect(await fresh).toEqual(member(null));
  });

  test("holds at most 50,000 memberships, counting what a drop removed", async () => {
    const fetch = jest.fn(async () => member("read"));
    const cache = new MembershipCache(fetch);
    for (let i = 0; i < 25_000; i++) await cache.get("o1", `u${i}`);
    for (let i = 0; i < 25_000; i++) await cache.get("o2", `u${i}`);
    cache.dropOrganization("o1");
    // 25,000 left: o3's 25,000 fill it up without emptying it.
    for (let i = 0; i < 25_000; i++) await cache.get("o3", `u${i}`);
    expect(cache.peek("o2", "u0")).toEqual(member("read"));
    expect(fetch).toHaveBeenCalledTimes(75_000);
    // The next new one finds it full: it starts again from that one.
    await cache.get("o4", "u0");
    expect(cache.peek("o2", "u0")).toBeUndefined();
    expect(cache.peek("o4", "u0")).toEqual(member("read"));
  });

  test("a failed fetch is not cached", async () => {
    const fetch = jest.fn().mockRejectedValueOnce(new Error("orgs unavailable")).mockResolvedValue(member("edit"));
    const cache = new MembershipCache(fetch);
    await expect(cache.get("o1", "u1")).rejects.toThrow("orgs unavailable");
    expect(await cache.get("o1", "u1")).toEqual(member("edit"));
  });
});

describe("hashToken", () => {
  test("a token hashes to the same 64 lowercase hex characters every time", () => {
    const hash = hashToken("secret-token");
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken("secret-token")).toBe(hash);
    expect(hash).not.toContain("secret");
  });

  test("different tokens hash differently", () => {
    expect(hashToken("a")).not.toBe(hashToken("b"));
    expect(hashToken("a")).toBe("ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb");
  });
});

describe("callerOf", () => {
  test("returns the caller the gateway put in ctx.meta.user", () => {
    const user = { id: "u1", instanceAdmin: false };
    expect(callerOf({ meta: { user } })).toBe(user);
  });

  test.each([
    ["no user", {}],
    ["a null user", { user: null }],
    ["a user without an id", { user: { instanceAdmin: true } }],
    ["a user whose id is not text", { user: { id: 5, instanceAdmin: false } }],
  ])("with %s it throws a 401 UnauthorizedError", (_what, meta) => {
    let thrown: unknown;
    try {
      callerOf({ meta });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(UnauthorizedError);
    expect(thrown).toMatchObject({ code: 401 });
  });
});

describe("grantedRoles", () => {
  const grants = { [grantKey("user", "u1")]: "edit", [grantKey("team", "t1")]: "review", [grantKey("team", "t2")]: "read" } as const;

  test("collects the member's own grant and their teams' grants from every level", () => {
    const collection = { [grantKey("team", "t2")]: "create" } as const;
    expect(grantedRoles({ member: true, userId: "u1", teams: ["t2"] }, grants, collection).sort()).toEqual(["create", "edit", "read"]);
  });

  test("gives nothing to a non-member or to someone else", () => {
    expect(grantedRoles({ member: false, userId: "u1", teams: ["t1"] }, grants)).toEqual([]);
    expect(grantedRoles({ member: true, userId: "u9", teams: [] }, grants)).toEqual([]);
    expect(grantedRoles({ member: true, userId: "u9" }, undefined)).toEqual([]);
  });

  test("user and team keys never collide", () => {
    expect(grantKey("user", "x")).not.toBe(grantKey("team", "x"));
  });
});

describe("grant updates", () => {
  test("an invite must name someone", () => {
    expect(() => invitees({ role: "read" })).toThrow(/teams' or 'users'/);
    expect(invitees({ role: "read", teams: ["a", "a"], users: ["b"] })).toEqual({ teams: ["a"], users: ["b"] });
  });

  test("a role sets one key per principal; null unsets them", () => {
    expect(grantUpdate("grants", {}, "edit", [["team", "t1"], ["user", "u1"]])).toEqual({ $set: { "grants.t_t1": "edit", "grants.u_u1": "edit" } });
    expect(grantUpdate("grants", {}, null, [["user", "u1"]])).toEqual({ $unset: ["grants.u_u1"] });
  });

  test("grants cannot grow past the limit", () => {
    const full = Object.fromEntries(Array.from({ length: MAX_GRANTS }, (_, i) => [grantKey("user", `u${i}`), "read" as const]));
    expect(() => grantUpdate("grants", full, "read", [["team", "new"]])).toThrow(/at most/);
    expect(grantUpdate("grants", full, "edit", [["user", "u1"]])).toEqual({ $set: { "grants.u_u1": "edit" } });
  });

  test("grantsTo lists one kind of principal", () => {
    expect(grantsTo({ t_a: "read", u_b: "edit" }, "user")).toEqual([{ id: "b", role: "edit" }]);
    expect(grantsTo(undefined, "team")).toEqual([]);
  });
});
