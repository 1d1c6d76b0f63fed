// A 201 gets its Location from the action's own header or the created resource's address.
import { settleCreatedLocation, type ResponseMeta } from "./created-location";

describe("settleCreatedLocation", () => {
  const created = { id: "o1", urls: { location: "http://api/v1/orgs/o1", app: "http://app/o/o1" } };

  test("a 201 answering the created resource gets its urls.location", () => {
    const meta: ResponseMeta = { $statusCode: 201 };
    settleCreatedLocation(meta, created);
    expect(meta.$location).toBe("http://api/v1/orgs/o1");
  });

  test("an action's own Location header or $location wins", () => {
    const fromHeader: ResponseMeta = { $statusCode: 201, $responseHeaders: { Location: "http://api/v1/spaces/s1/revisions/r1" } };
    settleCreatedLocation(fromHeader, created);
    expect(fromHeader.$location).toBe("http://api/v1/spaces/s1/revisions/r1");
    const given: ResponseMeta = { $statusCode: 201, $location: "http://elsewhere" };
    settleCreatedLocation(given, created);
    expect(given.$location).toBe("http://elsewhere");
  });

  test("other statuses, and 201s without an address, are left alone", () => {
    const ok: ResponseMeta = {};
    settleCreatedLocation(ok, created);
    expect(ok.$location).toBeUndefined();
    const token: ResponseMeta = { $statusCode: 201 };
    settleCreatedLocation(token, { id: "t1", token: "dsk_x" });
    settleCreatedLocation(token, null);
    expect(token.$location).toBeUndefined();
  });
});
