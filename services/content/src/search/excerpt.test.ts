import { excerpt } from "./excerpt";

describe("excerpt", () => {
  it("returns short text whole, with whitespace collapsed", () => {
    expect(excerpt("one\ntwo   three", ["two"])).toBe("one two three");
  });

  it("starts shortly before the first matched term and marks cut ends", () => {
    const text = `${"lorem ipsum ".repeat(40)}the needle is here ${"dolor sit ".repeat(40)}`;
    const result = excerpt(text, ["needle"], 100);
    expect(result).toContain("needle");
    expect(result.startsWith("…")).toBe(true);
    expect(result.endsWith("…")).toBe(true);
    expect(result.length).toBeLessThanOrEqual(102);
  });

  it("starts at the earliest of several terms, whatever their order", () => {
    const text = `${"lorem ".repeat(60)}second ${"ipsum ".repeat(60)}first ${"dolor ".repeat(60)}`;
    expect(excerpt(text, ["first", "second"], 60)).toContain("second");
  });

  it("starts at the beginning when no term is found", () => {
    const text = "alpha ".repeat(100);
    expect(excerpt(text, ["zeta"], 50).startsWith("alpha")).toBe(true);
  });

  it("matches terms at word starts, case-insensitively", () => {
    const text = `${"x ".repeat(200)}Installation steps ${"y ".repeat(200)}`;
    expect(excerpt(text, ["install"], 60)).toContain("Installation");
  });
});
