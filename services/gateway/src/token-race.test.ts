// The gateway's token check against a revocation that lands while identity.authenticate is out: the
// stale answer lets that one request through (it began before the revocation) but is not cached, so the
// next request asks again and is refused.
import type { Context } from "moleculer";
import { loadConfig } from "@docshelf/config";
import type { Caller } from "@docshelf/access";
import { gatewaySchema } from "./gateway.service";
import { TokenCache } from "./token-cache";
import type { GatewayRequest, Identity } from "./request";

type Identify = (this: unknown, ctx: Context, req: GatewayRequest) => Identity | Promise<Identity>;
type Handler = (this: unknown, ctx: { params: { tokenHash: string } }) => void;

describe("gateway token check and revocation", () => {
  const schema = gatewaySchema(loadConfig({}));
  const identify = (schema.methods as unknown as { identify: Identify }).identify;
  const revoked = (schema.events as unknown as Record<string, { handler: Handler }>)["identity.token.revoked"].handler;
  const request = { headers: { authorization: "Bearer dsk_a-token-of-enough-length" }, socket: null } as unknown as GatewayRequest;

  test("an authenticate answer that began before a revocation is not cached", async () => {
    const gateway = { tokens: new TokenCache(60_000) };
    const answers: Array<(caller: Caller | null) => void> = [];
    const ctx = { call: () => new Promise<Caller | null>((resolve) => answers.push(resolve)) } as unknown as Context;

    const first = identify.call(gateway, ctx, request) as Promise<Identity>;
    expect(answers).toHaveLength(1);
    // The revocation's broadcast arrives while the call is out; the identity service had read the token as valid.
    revoked.call(gateway, { params: { tokenHash: "any" } });
    answers[0]({ id: "u1", instanceAdmin: false });
    expect((await first).caller).toEqual({ id: "u1", instanceAdmin: false });

    // Not cached: the next request asks identity again, which now says no.
    const second = identify.call(gateway, ctx, request);
    expect(second).toBeInstanceOf(Promise);
    expect(answers).toHaveLength(2);
    answers[1](null);
    expect((await second).caller).toBeNull();
  });

  test("without a revocation in between, the answer is cached and the next request is answered at once", async () => {
    const gateway = { tokens: new TokenCache(60_000) };
    let calls = 0;
    const ctx = { call: () => (calls++, Promise.resolve({ id: "u1", instanceAdmin: false })) } as unknown as Context;
    await identify.call(gateway, ctx, request);
    const cached = identify.call(gateway, ctx, request);
    expect(cached).not.toBeInstanceOf(Promise);
    expect(calls).toBe(1);
  });
});
