import { parseUpload } from "./uploads";

const b64 = (text: string) => Buffer.from(text).toString("base64");

describe("parseUpload", () => {
  test("reads the type, the name parameter and base64 or percent-encoded content", () => {
    expect(parseUpload(`data:text/markdown;name=Guide.md;base64,${b64("# Guide")}`, 0)).toEqual({ name: "Guide.md", kind: "markdown", bytes: Buffer.from("# Guide") });
    expect(parseUpload("data:text/html,%3Ch1%3EHi%3C%2Fh1%3E", 1)).toMatchObject({ name: "file-2.html", kind: "html", bytes: Buffer.from("<h1>Hi</h1>") });
  });

  test("falls back to the name's extension, then to the ZIP signature", () => {
    expect(parseUpload(`data:application/octet-stream;name=docs.zip;base64,${b64("PK..")}`, 0).kind).toBe("zip");
    expect(parseUpload(`data:;base64,${b64("PK\u0003\u0004")}`, 0)).toMatchObject({ kind: "zip", name: "file-1.zip" });
  });

  test("keeps only the file name of a name with folders", () => {
    expect(parseUpload(`data:text/markdown;name=..%2F..%2Fetc%2Fx.md;base64,${b64("x")}`, 0).name).toBe("x.md");
  });

  test.each([
    ["a plain key", "uploads/abc.zip", /must be the file as a data URL/],
    ["bad base64", "data:text/markdown;base64,@@@", /not valid base64/],
    ["an unknown type", `data:image/png;base64,${b64("png")}`, /only Markdown, HTML and ZIP/],
    ["an empty file", "data:text/markdown;base64,", /is empty/],
  ])("%s is a 400 naming source.files[i]", (_what, value, message) => {
    expect(() => parseUpload(value, 3)).toThrow(/'source\.files\[3\]'/);
    expect(() => parseUpload(value, 3)).toThrow(message);
  });
});
