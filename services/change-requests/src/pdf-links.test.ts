import { signPdfToken, verifyPdfToken } from "./pdf-links";

describe("PDF link tokens", () => {
  const claims = { spaceId: "s", changeRequestId: "c", revision: "r", exp: 2_000 };

  test("a token verifies with its key until it expires", () => {
    const token = signPdfToken("key", claims);
    expect(verifyPdfToken("key", token, 1_000)).toEqual(claims);
    expect(verifyPdfToken("key", token, 2_000)).toBeNull();
  });

  test("another key, a changed payload or a malformed token is refused", () => {
    const token = signPdfToken("key", claims);
    expect(verifyPdfToken("other", token, 1_000)).toBeNull();
    const [, mac] = token.split(".");
    const forged = `${Buffer.from(JSON.stringify({ ...claims, revision: "x" })).toString("base64url")}.${mac}`;
    expect(verifyPdfToken("key", forged, 1_000)).toBeNull();
    expect(verifyPdfToken("key", "nonsense", 1_000)).toBeNull();
  });
});
