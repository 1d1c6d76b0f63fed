import { evaluateMarkdown, extractLinks, parseMarkdown } from "./markdown";

describe("parseMarkdown", () => {
  test("without front matter or heading the body is unchanged", () => {
    expect(parseMarkdown("Just text\n")).toEqual({ body: "Just text\n", fields: {} });
  });

  test("other front matter keys are kept as fields", () => {
    expect(parseMarkdown("---\nicon: gear\n---\nBody").fields).toEqual({ icon: "gear" });
  });

  test("only a leading level-1 heading gives the title", () => {
    expect(parseMarkdown("Intro\n# Later").title).toBeUndefined();
    expect(parseMarkdown("## Sub\n").title).toBeUndefined();
  });
});

describe("evaluateMarkdown", () => {
  test("substitutes known variables and leaves unknown ones as written", () => {
    expect(evaluateMarkdown("{{ space.vars.a }}-{{page.vars.b}}-{{ space.vars.c }}", { a: "1" }, { b: "2" })).toBe("1-2-{{ space.vars.c }}");
  });

  test("GitBook's expression markdown (what its Git sync writes) gives the value; an unknown one stays as written", () => {
    const text = 'For <code class="expression">space.vars.PRODUCT</code> (<code class="expression">page.vars.v</code>), <code class="expression">space.vars.zz</code>';
    expect(evaluateMarkdown(text, { PRODUCT: "Xopera" }, { v: "2" })).toBe('For Xopera (2), <code class="expression">space.vars.zz</code>');
  });

  test("does not read inherited object properties", () => {
    expect(evaluateMarkdown("{{ space.vars.constructor }}", {}, {})).toBe("{{ space.vars.constructor }}");
  });
});

describe("extractLinks", () => {
  test("finds links and images but not what is inside code", () => {
    const links = extractLinks('See [a](a.md "title") and ![img](x.png).\n\n```\n[no](no.md)\n```\n`[nor](nor.md)`');
    expect(links).toEqual([
      { href: "a.md", image: false },
      { href: "x.png", image: true },
    ]);
  });

  test("finds the files of GitBook's file blocks and figures", () => {
    const links = extractLinks('{% file src="a/b.pdf" %}\n\n<figure><img src="c.png" alt="C"></figure>\n');
    expect(links).toEqual([
      { href: "a/b.pdf", image: false },
      { href: "c.png", image: true },
    ]);
  });
});
