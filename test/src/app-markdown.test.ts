// The app renders Markdown exactly as the published sites do: its renderer (services/app/src/markdown.ts)
// is a copy of the sites' configuration, since no package exports the sites' one. This keeps the copy
// honest: the whole XSS corpus, and ordinary pages, render to the same HTML through both.
import { renderMarkdown as appRender } from "@docshelf/app/dist/markdown";
import { renderMarkdown as sitesRender } from "@docshelf/sites/dist/serve/markdown";
import { XSS_CORPUS } from "@docshelf/sites/dist/serve/xss-corpus";

const ORDINARY = [
  "# Title\n\nSome *emphasis*, **strong**, `code` and a [link](https://example.com).\n\n## Title\n\n- a\n- b\n\n1. one\n2. two\n",
  "| a | b |\n|---|---|\n| 1 | 2 |\n\n```ts\nconst x = 1;\n```\n\n> quote\n\n![img](https://example.com/i.png \"t\")\n",
];

describe("the app's Markdown renderer is the published sites' one", () => {
  test.each(XSS_CORPUS.map((c) => [c.name, c.markdown]))("XSS case %s renders the same", (_name, markdown) => {
    expect(appRender(markdown)).toBe(sitesRender(markdown).html);
  });

  test.each(ORDINARY)("an ordinary page renders the same (%#)", (markdown) => {
    expect(appRender(markdown)).toBe(sitesRender(markdown).html);
  });
});
