import { parsePage, rewriteLinks } from "./html-page";

const url = new URL("http://site.test/docs/page");

describe("parsePage", () => {
  it("takes the content of <main> and its first heading as the title", () => {
    const page = parsePage("<title>Site | Page</title><body><nav><a href='/a'>A</a></nav><main><h1>Real title</h1><p>Body</p></main><footer>(c)</footer></body>", url);
    expect(page.title).toBe("Real title");
    expect(page.content.innerHTML).toBe("<p>Body</p>");
  });

  it("falls back to <article>, then <body>, and to the document title", () => {
    expect(parsePage("<title>T</title><body><div>x</div><article><p>A</p></article></body>", url).content.innerHTML).toBe("<p>A</p>");
    const page = parsePage("<title> Doc &amp; title </title><body><header>Banner</header><p>B</p></body>", url);
    expect(page.title).toBe("Doc & title");
    expect(page.content.text.trim()).toBe("B");
  });

  it("removes scripts, styles, navigation, footers and forms from the content", () => {
    const page = parsePage("<body><main><script>evil()</script><style>p{}</style><nav>menu</nav><p>keep</p><form><input></form><footer>foot</footer></main></body>", url);
    expect(page.content.innerHTML).toBe("<p>keep</p>");
  });

  it("collects every http(s) link of the document, navigation included, resolved against <base>", () => {
    const page = parsePage("<head><base href='/root/'></head><body><nav><a href='a'>A</a></nav><main><a href='mailto:x@y.test'>m</a><a href='http://other.test/b#x'>B</a></main></body>", url);
    expect(page.links.map((l) => l.href)).toEqual(["http://site.test/root/a", "http://other.test/b#x"]);
  });
});

describe("rewriteLinks", () => {
  it("points imported pages to page paths and everything else to absolute URLs", () => {
    const page = parsePage("<main><a href='/guide#step'>g</a><a href='/elsewhere'>e</a><a href=\"#local\">l</a><img src='img/x.png'></main>", url);
    rewriteLinks(page.content, page.base, (target) => (target.pathname === "/guide" ? "guide" : undefined));
    expect(page.content.innerHTML).toBe(
      '<a href="guide#step">g</a><a href="http://site.test/elsewhere">e</a><a href="#local">l</a><img src="http://site.test/docs/img/x.png">',
    );
  });
});
