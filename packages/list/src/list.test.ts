import { Validators } from "moleculer";
import { BadRequestError } from "@docshelf/errors";
import { SqliteStore, newId, type Collection, type Doc, type Filter, type Sort, type Store } from "@docshelf/store";
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  decodePageToken,
  encodePageToken,
  listArray,
  listPage,
  listParams,
  type ListEnvelope,
  type PageRequest,
} from "./index";

interface Item extends Doc {
  n: number;
  group: string;
}

let store: Store;
let items: Collection<Item>;

beforeEach(async () => {
  store = new SqliteStore({});
  items = await store.collection<Item>({ name: "items" });
});

afterEach(async () => {
  await store.close();
});

async function seed(count: number, make: (i: number) => Partial<Item> = () => ({})): Promise<Item[]> {
  const out: Item[] = [];
  for (let i = 0; i < count; i++) out.push(await items.insert({ id: newId(), n: i, group: i % 2 ? "odd" : "even", ...make(i) }));
  return out;
}

const same = (docs: Item[]) => docs;

/** Follows `next` until the last page, returning every page. */
async function walkPages(filter: Filter, request: PageRequest & { sort?: Sort }): Promise<Array<ListEnvelope<Item>>> {
  const pages: Array<ListEnvelope<Item>> = [];
  let page: string | undefined;
  do {
    const envelope = await listPage(items, filter, { ...request, page }, same);
    pages.push(envelope);
    page = envelope.next?.page;
  } while (page && pages.length < 1000);
  return pages;
}

async function rejection(promise: Promise<unknown> | (() => unknown)): Promise<unknown> {
  try {
    await (typeof promise === "function" ? promise() : promise);
  } catch (err) {
    return err;
  }
  return undefined;
}

function tokenOf(body: unknown): string {
  return Buffer.from(typeof body === "string" ? body : JSON.stringify(body)).toString("base64url");
}

describe("listPage", () => {
  test("without a limit a page holds 50 items, counts them all and links to the next page", async () => {
    const docs = await seed(120);
    const envelope = await listPage(items, {}, {}, same);
    expect(DEFAULT_PAGE_SIZE).toBe(50);
    expect(envelope.items).toHaveLength(50);
    expect(envelope.items).toEqual(docs.slice(0, 50));
    expect(envelope.count).toBe(120);
    expect(typeof envelope.next?.page).toBe("string");
  });

  test("an explicit limit sets the page size", async () => {
    const docs = await seed(10);
    const envelope = await listPage(items, {}, { limit: 3 }, same);
    expect(envelope.items).toEqual(docs.slice(0, 3));
    expect(envelope.count).toBe(10);
    expect(envelope.next).toBeDefined();
  });

  test("the last page has no next, also when it is exactly full", async () => {
    await seed(10);
    expect((await listPage(items, {}, { limit: 10 }, same)).next).toBeUndefined();
    expect((await listPage(items, {}, { limit: 11 }, same)).next).toBeUndefined();
    const empty = await listPage(items, {}, {}, same);
    expect(empty.items).toHaveLength(10);
    expect(empty).not.toHaveProperty("next");
  });

  test("an empty list is an envelope with no items, a count of zero and no next", async () => {
    expect(await listPage(items, {}, {}, same)).toEqual({ items: [], count: 0 });
  });

  test.each([
    ["in id order", undefined, 7],
    ["ascending on a field with ties", [["group", 1]] as Sort, 4],
    ["descending on a field", [["n", -1]] as Sort, 1],
    ["on two fields", [["group", -1], ["n", 1]] as Sort, 9],
  ])("following next tokens %s visits every item exactly once, in order", async (_what, sort, limit) => {
    const docs = await seed(53);
    const expected = await items.find({}, { sort });
    const pages = await walkPages({}, { sort, limit });
    const walked = pages.flatMap((p) => p.items);
    expect(walked.map((d) => d.id)).toEqual(expected.map((d) => d.id));
    expect(walked).toHaveLength(docs.length);
    expect(pages.every((p) => p.count === 53)).toBe(true);
    expect(pages.slice(0, -1).every((p) => p.items.length === limit)).toBe(true);
  });

  test("a filter limits both the items and the count", async () => {
    const docs = await seed(21);
    const pages = await walkPages({ group: "odd" }, { limit: 4 });
    expect(pages.flatMap((p) => p.items).map((d) => d.id)).toEqual(docs.filter((d) => d.group === "odd").map((d) => d.id));
    expect(pages[0].count).toBe(10);
  });

  test("items inserted while a caller walks the pages never make another appear twice or be skipped", async () => {
    const docs = await seed(30);
    const seen: string[] = [];
    let page: string | undefined;
    let added = 0;
    do {
      const envelope: ListEnvelope<Item> = await listPage(items, {}, { page, limit: 7 }, same);
      seen.push(...envelope.items.map((d) => d.id));
      page = envelope.next?.page;
      await items.insert({ id: newId(), n: 1000 + added++, group: "late" });
    } while (page);
    expect(new Set(seen).size).toBe(seen.length);
    for (const doc of docs) expect(seen).toContain(doc.id);
  });

  test("present turns the page's documents into the items, and may be asynchronous", async () => {
    await seed(3);
    const envelope = await listPage(items, {}, { limit: 2 }, async (docs) => docs.map((d) => ({ number: d.n })));
    expect(envelope.items).toEqual([{ number: 0 }, { number: 1 }]);
    expect(envelope.count).toBe(3);
  });

  test("a token made for one sort order is refused for another with a 400", async () => {
    await seed(5);
    const first = await listPage(items, {}, { sort: [["n", 1]], limit: 2 }, same);
    const token = first.next!.page;
    for (const sort of [[["n", -1]], [["group", 1]], undefined] as Array<Sort | undefined>) {
      const err = await rejection(listPage(items, {}, { sort, page: token, limit: 2 }, same));
      expect(err).toBeInstanceOf(BadRequestError);
      expect(err).toMatchObject({ code: 400 });
    }
    expect((await listPage(items, {}, { sort: [["n", 1]], page: token, limit: 2 }, same)).items.map((d) => d.n)).toEqual([2, 3]);
  });

  test.each([
    ["a tampered token", (t: string) => t.slice(0, -3) + (t.endsWith("AAA") ? "BBB" : "AAA")],
    ["a truncated token", (t: string) => t.slice(0, Math.floor(t.length / 2))],
    ["text that is not a token", () => "not a page token"],
    ["a token of JSON null", () => tokenOf("null")],
    ["a token of another shape", () => tokenOf({ cursor: "abc" })],
    ["a token whose id is not text", () => tokenOf({ s: "id+", v: [], i: 5 })],
    ["a token carrying an operator as a sort value", () => tokenOf({ s: "n+,id+", v: [{ $gt: "" }], i: "x" })],
    ["a token with too few sort values", () => tokenOf({ s: "n+,id+", v: [], i: "x" })],
  ])("%s is a 400 BadRequestError", async (_what, make) => {
    await seed(5);
    const sort: Sort = [["n", 1]];
    const first = await listPage(items, {}, { sort, limit: 2 }, same);
    const err = await rejection(listPage(items, {}, { sort, page: make(first.next!.page), limit: 2 }, same));
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err).toMatchObject({ code: 400 });
  });

  test.each([0, -1, 1.5, MAX_PAGE_SIZE + 1, Number.NaN])("a limit of %p is a 400 BadRequestError", async (limit) => {
    await seed(3);
    const err = await rejection(listPage(items, {}, { limit }, same));
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err).toMatchObject({ code: 400 });
  });

  test("a limit of 1000 is allowed", async () => {
    await seed(3);
    expect((await listPage(items, {}, { limit: MAX_PAGE_SIZE }, same)).items).toHaveLength(3);
  });
});

describe("page tokens", () => {
  test("a token decodes to the cursor it was made from, for the same sort only", () => {
    const sort: Sort = [["title", 1], ["id", 1]];
    const cursor = { values: ["Intro"], id: "abc" };
    const token = encodePageToken(sort, cursor);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodePageToken(sort, token)).toEqual(cursor);
    expect(() => decodePageToken([["title", -1], ["id", -1]], token)).toThrow(BadRequestError);
  });
});

describe("listArray", () => {
  const rows = ["e", "a", "d", "c", "b", "f", "g"].map((id) => ({ id, label: id.toUpperCase() }));

  test("pages over an array in id order and counts all of it", () => {
    const first = listArray(rows, { limit: 3 });
    expect(first.items.map((r) => r.id)).toEqual(["a", "b", "c"]);
    expect(first.count).toBe(7);
    const second = listArray(rows, { limit: 3, page: first.next!.page });
    expect(second.items.map((r) => r.id)).toEqual(["d", "e", "f"]);
    const third = listArray(rows, { limit: 3, page: second.next!.page });
    expect(third.items.map((r) => r.id)).toEqual(["g"]);
    expect(third.next).toBeUndefined();
  });

  test("without a limit a page holds 50 items", () => {
    const many = Array.from({ length: 75 }, (_, i) => ({ id: `id${String(i).padStart(3, "0")}` }));
    const first = listArray(many, {});
    expect(first.items).toHaveLength(50);
    expect(first.count).toBe(75);
    expect(listArray(many, { page: first.next!.page }).items).toEqual(many.slice(50));
  });

  test("an empty array is an envelope with no items and no next", () => {
    expect(listArray([], {})).toEqual({ items: [], count: 0 });
  });

  test("a tampered token or one made for a sorted store list is a 400 BadRequestError", () => {
    const first = listArray(rows, { limit: 2 });
    const foreign = encodePageToken([["n", 1], ["id", 1]], { values: [1], id: "b" });
    for (const page of [first.next!.page.slice(1), foreign, "garbage"]) {
      const err = (() => {
        try {
          listArray(rows, { limit: 2, page });
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(BadRequestError);
    }
  });

  test("a limit out of range is a 400 BadRequestError", () => {
    expect(() => listArray(rows, { limit: 0 })).toThrow(BadRequestError);
    expect(() => listArray(rows, { limit: MAX_PAGE_SIZE + 1 })).toThrow(BadRequestError);
  });
});

describe("listParams", () => {
  const validator = new Validators.Fastest();
  const check = (params: Record<string, unknown>) => validator.validate(params, listParams);

  test("accepts a page token and a limit up to 1000, converting a numeric string", () => {
    const params: Record<string, unknown> = { page: "abc", limit: "1000" };
    expect(check(params)).toBe(true);
    expect(params.limit).toBe(1000);
    expect(check({})).toBe(true);
  });

  test.each([{ limit: 0 }, { limit: 1001 }, { limit: 2.5 }, { page: "" }, { page: "x".repeat(1025) }])(
    "a request with %p fails validation",
    (params) => {
      expect(() => check(params)).toThrow(expect.objectContaining({ name: "ValidationError" }));
    },
  );
});
