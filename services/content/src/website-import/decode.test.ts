import { decodeHtml } from "./decode";

describe("decodeHtml", () => {
  it("reads UTF-8 by default", () => {
    expect(decodeHtml(Buffer.from("<p>café ✓</p>", "utf8"), "text/html")).toBe("<p>café ✓</p>");
  });

  it("uses the charset of the Content-Type header", () => {
    expect(decodeHtml(Buffer.from("<p>café</p>", "latin1"), "text/html; charset=ISO-8859-1")).toBe("<p>café</p>");
  });

  it("uses a <meta charset> when the header names none", () => {
    const body = Buffer.concat([Buffer.from('<meta charset="windows-1252"><p>'), Buffer.from([0x93, 0x68, 0x69, 0x94]), Buffer.from("</p>")]);
    expect(decodeHtml(body, "text/html")).toBe('<meta charset="windows-1252"><p>“hi”</p>');
  });

  it("falls back to UTF-8 for an unknown charset", () => {
    expect(decodeHtml(Buffer.from("<p>ok</p>"), "text/html; charset=x-klingon")).toBe("<p>ok</p>");
  });
});
