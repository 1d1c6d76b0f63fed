import { documentToMarkdown, markdownToDocument } from "@docshelf/document";
import { expectValid } from "@docshelf/document/dist/gitbook-schema";
import { captionOf, lengthText, parseLength, withCaption } from "./image";
import { fromEditor, toEditor } from "./convert";
import { schema } from "./schema";

describe("an image's caption and width in the editor", () => {
  test("a width is whole pixels or a percentage, as the document's Markdown writes them; anything else is no width", () => {
    expect(parseLength("480")).toBe(480);
    expect(parseLength(" 480px ")).toBe(480);
    expect(parseLength("50%")).toEqual({ unit: "%", value: 50 });
    expect(parseLength("12.5%")).toEqual({ unit: "%", value: 12.5 });
    for (const bad of ["", "0", "0%", "101%", "-3", "3em", "1e3", "480 pixels", "123456", "50%%", "javascript:1"]) expect(parseLength(bad)).toBeUndefined();
    expect(lengthText(480)).toBe("480");
    expect(lengthText({ unit: "%", value: 50 })).toBe("50%");
    expect(lengthText({ unit: "em", value: 3 })).toBe("");
    expect(lengthText(undefined)).toBe("");
  });

  test("a caption set, changed and emptied: one caption fragment, or none; other fragments stay", () => {
    const other = { object: "fragment", fragment: "other", nodes: [] };
    const once = withCaption([other], "  A   diagram ");
    expect(captionOf({ attrs: { fragments: once } })).toBe("A diagram");
    const twice = withCaption(once, "The diagram");
    expect(twice).toHaveLength(2);
    expect(captionOf({ attrs: { fragments: twice } })).toBe("The diagram");
    expect(withCaption(twice, " ")).toEqual([other]);
  });

  test("caption and width set on an image in the editor are saved as GitBook's image fields and read back from the Markdown", () => {
    const doc = toEditor(markdownToDocument('<figure><img src="https://example.com/a.png" alt="A"><figcaption><p>Old **caption**</p></figcaption></figure>\n'));
    let pos = -1;
    doc.descendants((node, at) => {
      if (node.type === schema.nodes.image) pos = at;
      return pos < 0;
    });
    const image = doc.nodeAt(pos)!;
    expect(captionOf(image)).toBe("Old caption");
    const edited = doc.type.create(doc.attrs, doc.content.replaceChild(0, doc.firstChild!.copy(doc.firstChild!.content.replaceChild(0, image.type.create({ ...image.attrs, data: { ...image.attrs.data, width: { unit: "%", value: 40 } }, fragments: withCaption(image.attrs.fragments, "New caption < 5 </figcaption>") })))));
    const saved = fromEditor(edited);
    expectValid(saved);
    const back = markdownToDocument(documentToMarkdown(saved));
    expect(back).toEqual(saved);
    const [figure] = back.nodes;
    if (figure.type !== "images") throw new Error("images expected");
    expect(figure.nodes[0].data).toEqual({ ref: { kind: "url", url: "https://example.com/a.png" }, alt: "A", width: { unit: "%", value: 40 } });
    expect(captionOf({ attrs: { fragments: figure.nodes[0].fragments } })).toBe("New caption < 5 </figcaption>");
  });
});
