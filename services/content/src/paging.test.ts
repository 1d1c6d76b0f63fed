import { pageArray } from "./paging";

const items = Array.from({ length: 5 }, (_, i) => ({ id: `i${i}` }));
const ids = (list: Array<{ id: string }>) => list.map((i) => i.id);

describe("pageArray", () => {
  test("walks every item once in ascending and descending order", () => {
    for (const order of ["asc", "desc"] as const) {
      const seen: string[] = [];
      let page: string | undefined;
      do {
        const res = pageArray(items, { limit: 2, page, order }, (x) => x);
        seen.push(...ids(res.items));
        page = res.next?.page;
      } while (page);
      expect(seen).toEqual(order === "asc" ? ids(items) : ids(items).reverse());
    }
  });

  test("refuses limits out of range and foreign tokens", () => {
    expect(() => pageArray(items, { limit: 1001 }, (x) => x)).toThrow("limit");
    expect(() => pageArray(items, { page: "garbage" }, (x) => x)).toThrow("page");
  });
});
