// The search box's endpoint of published sites (`{base}/~search.json?q=`) through HTTP, in every process
// mode: the search page's ranking as JSON with the matched words flagged, the site's visibility exactly as
// its pages (share link, visitor token, adaptive sections), bad input 400 naming the field, never a 5xx.
import { type RunningSystem } from "@docshelf/testkit";
import { MODES, start } from "./modes";
import { newSection, newSite, sitesWorld, type SitesWorld } from "./sites-fixtures";
import { addPages, cookiesOf, header, html, publishedSite, rawGet, signToken, unique, type PublishedSite } from "./sites-serve-fixtures";

interface Piece {
  text: string;
  match?: true;
}
const text = (pieces: Piece[]) => pieces.map((p) => p.text).join("");
const marked = (pieces: Piece[]) => pieces.filter((p) => p.match).map((p) => p.text);
const titles = (body: { items: Array<{ title: Piece[] }> }) => body.items.map((i) => text(i.title));

describe.each(MODES)("search as you type over %s", (mode) => {
  let sys: RunningSystem;
  let w: SitesWorld;
  let docs: PublishedSite;
  const get = (path: string, headers: Record<string, string> = {}) => rawGet(sys.url, path, headers);
  const json = (res: { text: string }) => JSON.parse(res.text);

  beforeAll(async () => {
    sys = await start(mode);
    w = await sitesWorld(sys);
    docs = await publishedSite(sys, w, {
      pages: [
        { id: "intro", title: "Introduction", markdown: "Welcome.\n\n## Airships\n\nA word on Zeppelins and blimps.\n" },
        { id: "guide", title: "Guide to zeppelins", markdown: "The guide.\n\n## Configure\n\nSet the zeppelin up, then fly the zeppelin.\n" },
        { id: "secret", title: "Hidden zeppelin page", hidden: true, markdown: "Hidden zeppelin notes.\n" },
        { id: "xss", title: '<img src=x onerror="alert(1)">', markdown: "The `<script>alert(2)</script>` quokka.\n" },
      ],
    });
  });
  afterAll(async () => {
    await sys?.stop();
  });

  test("answers the search page's pages as JSON: title, section, snippet with the matched words flagged", async () => {
    const res = await get(`${docs.base}/~search.json?q=${encodeURIComponent("Zeppelin")}`);
    expect(res.status).toBe(200);
    expect(header(res, "content-type")).toBe("application/json; charset=utf-8");
    expect(header(res, "x-content-type-options")).toBe("nosniff");
    expect(header(res, "cache-control")).toBe("public, max-age=60");
    expect(header(res, "x-robots-tag")).toBe("noindex");
    const body = json(res);
    expect(body.query).toBe("Zeppelin");
    // The same pages, in the same order, as the search page; never the hidden one.
    const page = await get(`${docs.base}/~search?q=Zeppelin`);
    const shown = html(page).querySelectorAll("ol.search-results > li > a").map((a) => a.text);
    expect(titles(body)).toEqual(shown);
    expect(titles(body).sort()).toEqual(["Guide to zeppelins", "Introduction"]);
    const guide = body.items.find((i: { title: Piece[] }) => text(i.title) === "Guide to zeppelins");
    expect(marked(guide.title)).toEqual(["zeppelins"]);
    expect(guide.href).toBe(`${docs.base}/guide-to-zeppelins#configure`);
    expect(guide.section).toBe("Configure");
    expect(text(guide.snippet)).toBe("Set the zeppelin up, then fly the zeppelin.");
    expect(marked(guide.snippet)).toEqual(["zeppelin", "zeppelin"]);
    const intro = body.items.find((i: { title: Piece[] }) => text(i.title) === "Introduction");
    expect(intro.href).toBe(`${docs.base}#airships`);
    expect(marked(intro.snippet)).toEqual(["Zeppelins"]);
    // A single site space: no label.
    expect(body.items.every((i: { space?: string }) => i.space === undefined)).toBe(true);
    // A strong ETag, as every page.
    const again = await get(`${docs.base}/~search.json?q=Zeppelin`, { "If-None-Match": header(res, "etag") });
    expect(again.status).toBe(304);
    // limit cuts the same order.
    expect(titles(json(await get(`${docs.base}/~search.json?q=Zeppelin&limit=1`)))).toEqual([titles(body)[0]]);
  });

  test("markup in titles and text comes back as text pieces, never as HTML", async () => {
    const res = await get(`${docs.base}/~search.json?q=quokka`);
    expect(res.status).toBe(200);
    const [item] = json(res).items;
    expect(text(item.title)).toBe('<img src=x onerror="alert(1)">');
    expect(text(item.snippet)).toContain("quokka");
    for (const piece of [...item.title, ...item.snippet]) expect(Object.keys(piece).sort()).toEqual(piece.match ? ["match", "text"] : ["text"]);
    expect(json(await get(`${docs.base}/~search.json?q=${encodeURIComponent('<script>"x')}`)).items).toEqual([]);
  });

  test.each([
    ["no q", "", "q"],
    ["an empty q", "?q=", "q"],
    ["a blank q", "?q=%20%20", "q"],
    ["a q of 513 characters", `?q=${"a".repeat(513)}`, "q"],
    ["a q longer than the gateway carries", `?q=${"a".repeat(5000)}`, "q"],
    ["limit 0", "?q=guide&limit=0", "limit"],
    ["limit 21", "?q=guide&limit=21", "limit"],
    ["a fractional limit", "?q=guide&limit=1.5", "limit"],
    ["a word as limit", "?q=guide&limit=ten", "limit"],
  ])("%s is 400 naming the field", async (_name, query, field) => {
    const res = await get(`${docs.base}/~search.json${query}`);
    expect(res.status).toBe(400);
    expect(header(res, "content-type")).toBe("application/json; charset=utf-8");
    expect(header(res, "cache-control")).toBe("no-store");
    expect(json(res).error).toMatchObject({ code: 400, field });
  });

  test("odd queries never fail the server", async () => {
    for (const q of ["%00", "%ZZ", "%F0%9F%92%A9", "(((", "\\", "*", "a&q=b", "%E2%80%AE", encodeURIComponent("\u{10FFFF}"), encodeURIComponent("a".repeat(512))]) {
      const res = await get(`${docs.base}/~search.json?q=${q}`);
      expect(res.status).toBeLessThan(500);
    }
    expect((await get(`${docs.base}/~search.json?q=a&q=zeppelin`)).status).toBe(200);
    // The endpoint is one name: anything under it is no page.
    expect((await get(`${docs.base}/~search.json/x?q=a`)).status).toBe(404);
  });

  test("only the site's own pages are searched", async () => {
    const other = await publishedSite(sys, w, { pages: [{ title: "Elsewhere", markdown: "More zeppelins here." }] });
    expect(titles(json(await get(`${docs.base}/~search.json?q=zeppelins`)))).not.toContain("Elsewhere");
    expect(titles(json(await get(`${other.base}/~search.json?q=zeppelins`)))).toEqual(["Elsewhere"]);
  });

  test("an unpublished or unknown site answers the 404 page", async () => {
    const gone = await publishedSite(sys, w, { pages: [{ title: "Soon gone", markdown: "Ephemeral zeppelins." }] });
    expect((await w.owner.api.post(`${w.sites}/${gone.site.id}/unpublish`)).status).toBe(200);
    expect((await get(`${gone.base}/~search.json?q=zeppelins`)).status).toBe(404);
    expect((await get(`/sites/${unique("nosite")}/~search.json?q=zeppelins`)).status).toBe(404);
  });

  test("a share-link site answers only with an active key, privately", async () => {
    const shared = await publishedSite(sys, w, { visibility: "share-link", pages: [{ title: "Partner notes", markdown: "Private zeppelins." }] });
    const link = (await w.owner.api.post(`${w.sites}/${shared.site.id}/share-links`, { name: "Partners" })).body;
    const key = new URL(link.urls.published).searchParams.get("share")!;
    const refused = await get(`${shared.base}/~search.json?q=zeppelins`);
    expect(refused.status).toBe(404);
    expect(refused.text).not.toContain("Partner notes");
    expect((await get(`${shared.base}/~search.json?q=zeppelins&share=wrong`)).status).toBe(404);
    const opened = await get(`${shared.base}?share=${encodeURIComponent(key)}`);
    const cookie = cookiesOf(opened);
    const found = await get(`${shared.base}/~search.json?q=zeppelins`, { Cookie: cookie });
    expect(found.status).toBe(200);
    expect(header(found, "cache-control")).toBe("private, no-store");
    expect(titles(json(found))).toEqual(["Partner notes"]);
    expect((await w.owner.api.patch(`${w.sites}/${shared.site.id}/share-links/${link.id}`, { active: false })).status).toBe(200);
    const closed = await get(`${shared.base}/~search.json?q=zeppelins`, { Cookie: cookie });
    expect(closed.status).toBe(404);
    expect(closed.text).not.toContain("Partner notes");
  });

  test("a visitor-auth site answers 401 without a token, and a token's claims decide which sections are searched", async () => {
    const created = await newSite(w, { visibility: "visitor-auth", title: "Private docs" });
    const handbook = await newSection(w, created.id, "Handbook");
    await addPages(sys, handbook.siteSpaces[0].space.id, [{ title: "Handbook home", markdown: "Everyone reads about zeppelins." }]);
    const beta = await newSection(w, created.id, "Beta");
    await addPages(sys, beta.siteSpaces[0].space.id, [{ title: "Beta home", markdown: "Beta zeppelins only." }]);
    expect((await w.owner.api.patch(`${w.sites}/${created.id}/sections/${beta.id}`, { condition: "visitor.claims.beta === true" })).status).toBe(200);
    const basename = unique("private");
    await w.owner.api.patch(`${w.sites}/${created.id}`, { basename });
    await w.owner.api.post(`${w.sites}/${created.id}/publish`);
    const base = `/sites/${basename}`;
    const key = (await w.owner.api.get(`${w.sites}/${created.id}/publishing/auth`)).body.privateKey;
    const exp = Math.floor(Date.now() / 1000) + 600;

    const anonymous = await get(`${base}/~search.json?q=zeppelins`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.text).not.toContain("home");
    const forged = signToken("not-the-key", { aud: created.id, exp, beta: true });
    expect((await get(`${base}/~search.json?q=zeppelins&jwt_token=${forged}`)).status).toBe(401);

    const plain = await get(`${base}/~search.json?q=zeppelins&jwt_token=${signToken(key, { aud: created.id, exp })}`);
    expect(plain.status).toBe(200);
    expect(header(plain, "cache-control")).toBe("private, no-store");
    expect(titles(json(plain))).toEqual(["Handbook home"]);
    const betaVisitor = await get(`${base}?jwt_token=${signToken(key, { aud: created.id, exp, beta: true })}`);
    const both = json(await get(`${base}/~search.json?q=zeppelins`, { Cookie: cookiesOf(betaVisitor) }));
    expect(titles(both).sort()).toEqual(["Beta home", "Handbook home"]);
    // Several sections: each result names where it lives.
    expect(both.items.map((i: { title: Piece[]; space?: string }) => [text(i.title), i.space]).sort()).toEqual([
      ["Beta home", "Beta"],
      ["Handbook home", "Handbook"],
    ]);
  });
});
