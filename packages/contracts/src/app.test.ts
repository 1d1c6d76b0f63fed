import { MESSAGE_RESERVE_BYTES, fileLimitForPayload, transporterMaxPayload } from "./app";

describe("the largest file one transporter message carries", () => {
  test("NATS's default max_payload (1 MiB) leaves 761,856 bytes, whose base64 fits with the reserve to spare", () => {
    const limit = fileLimitForPayload(1024 * 1024)!;
    expect(limit).toBe(761_856);
    expect(Buffer.alloc(limit).toString("base64").length + MESSAGE_RESERVE_BYTES).toBeLessThanOrEqual(1024 * 1024);
    expect(fileLimitForPayload(8 * 1024 * 1024)).toBeGreaterThan(6_000_000);
  });
  test("no transporter (or a nonsense value): no limit of its own", () => {
    expect(fileLimitForPayload(undefined)).toBeUndefined();
    expect(fileLimitForPayload(0)).toBeUndefined();
    expect(fileLimitForPayload(Number.NaN)).toBeUndefined();
    expect(fileLimitForPayload(1000)).toBe(0);
  });
  test("max_payload is read from the NATS connection's INFO, when there is one", () => {
    expect(transporterMaxPayload({ transit: { tx: { client: { info: { max_payload: 2048 } } } } })).toBe(2048);
    expect(transporterMaxPayload({ transit: { tx: { client: {} } } })).toBeUndefined();
    expect(transporterMaxPayload({})).toBeUndefined();
  });
});
