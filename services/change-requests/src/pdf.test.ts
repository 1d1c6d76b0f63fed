import { pdfText, renderPdf, wrap } from "./pdf";

function objectsAt(pdf: string): Array<{ id: number; offset: number }> {
  const xref = Number(/startxref\n(\d+)/.exec(pdf)![1]);
  const table = pdf.slice(xref).split("\n");
  const count = Number(table[1].split(" ")[1]);
  return table.slice(3, 2 + count).map((line, i) => ({ id: i + 1, offset: Number(line.slice(0, 10)) }));
}

describe("renderPdf", () => {
  test("writes an ASCII PDF whose cross-reference table points at every object", () => {
    const pdf = renderPdf("Change request #1", [{ title: "Welcome", markdown: "Hello (world) \\ café 日本" }]);
    expect(pdf.startsWith("%PDF-1.4\n")).toBe(true);
    expect(pdf.endsWith("%%EOF\n")).toBe(true);
    expect(/^[\x00-\x7f]*$/.test(pdf)).toBe(true);
    for (const { id, offset } of objectsAt(pdf)) expect(pdf.slice(offset, offset + `${id} 0 obj`.length)).toBe(`${id} 0 obj`);
    expect(pdf).toContain("(Welcome) '");
    expect(pdf).toContain("Hello \\(world\\) \\\\ caf\\351 ??");
  });

  test("each section starts a page and long sections flow over several", () => {
    const long = Array.from({ length: 120 }, (_, i) => `line ${i}`).join("\n");
    const pdf = renderPdf("x", [{ title: "One", markdown: "short" }, { title: "Two", markdown: long }]);
    expect(/\/Count (\d+)/.exec(pdf)![1]).toBe("4");
  });

  test("lines wrap at spaces, and words longer than a line are cut", () => {
    expect(wrap("aaa bbb ccc", 7)).toEqual(["aaa bbb", "ccc"]);
    expect(wrap("abcdefghij", 4)).toEqual(["abcd", "efgh", "ij"]);
    expect(pdfText("\t(x)")).toBe("    \\(x\\)");
  });
});
