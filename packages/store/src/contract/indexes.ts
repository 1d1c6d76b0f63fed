// Part of the store contract (index.ts) — Unique indexes.
import { ConflictError } from "@docshelf/errors";
import { newId } from "../ids";
import { type Harness } from "./harness";

export function indexesContract(h: Harness): void {
  const { openStore, uniqueName, fresh, seed } = h;
  describe("unique indexes", () => {
    test("inserting a duplicate of a unique field throws a 409 ConflictError and stores nothing", async () => {
      const c = await fresh([{ fields: ["email"], unique: true }]);
      await seed(c, [{ email: "a@x.test" }]);
      const err = await c.insert({ id: newId(), email: "a@x.test" }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConflictError);
      expect(err).toMatchObject({ code: 409 });
      expect(await c.count({})).toBe(1);
    });

    test("updating a document to a taken unique value throws a 409 ConflictError and leaves it unchanged", async () => {
      const c = await fresh([{ fields: ["email"], unique: true }]);
      const [, b] = await seed(c, [{ email: "a@x.test" }, { email: "b@x.test" }]);
      const err = await c.updateOne({ id: b.id }, { $set: { email: "a@x.test" } }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConflictError);
      expect(err).toMatchObject({ code: 409 });
      expect(await c.findOne({ id: b.id })).toEqual(b);
    });

    test("a compare-and-swap to a taken unique value throws a 409 ConflictError", async () => {
      const c = await fresh([{ fields: ["slug"], unique: true }]);
      const [, b] = await seed(c, [{ slug: "a" }, { slug: "b" }]);
      const err = await c.compareAndSwap(b.id, "slug", "b", "a").catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConflictError);
      expect(await c.findOne({ id: b.id })).toEqual(b);
    });

    test("a non-unique index allows equal values", async () => {
      const c = await fresh([{ fields: ["org"] }]);
      await seed(c, [{ org: "o" }, { org: "o" }]);
      expect(await c.count({ org: "o" })).toBe(2);
    });

    test("a sparse unique index allows many documents without the field but no duplicates among those with it", async () => {
      const c = await fresh([{ fields: ["hostname"], unique: true, sparse: true }]);
      await seed(c, [{ name: "a" }, { name: "b" }, { name: "c", hostname: "docs.example.com" }]);
      expect(await c.count({})).toBe(3);
      const err = await c.insert({ id: newId(), hostname: "docs.example.com" }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConflictError);
      expect(err).toMatchObject({ code: 409 });
    });

    test("a compound unique index refuses only the same combination of values", async () => {
      const c = await fresh([{ fields: ["organizationId", "userId"], unique: true }]);
      await seed(c, [
        { organizationId: "o1", userId: "u1" },
        { organizationId: "o1", userId: "u2" },
        { organizationId: "o2", userId: "u1" },
      ]);
      expect(await c.count({})).toBe(3);
      const err = await c.insert({ id: newId(), organizationId: "o1", userId: "u1" }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConflictError);
      expect(err).toMatchObject({ code: 409 });
      expect(await c.count({})).toBe(3);
    });

    test("a unique index is kept when the collection is opened again", async () => {
      const store = await openStore();
      const name = uniqueName();
      const first = await fresh([{ fields: ["email"], unique: true }], store, name);
      await seed(first, [{ email: "a@x.test" }]);
      const again = await fresh([{ fields: ["email"], unique: true }], store, name);
      await expect(again.insert({ id: newId(), email: "a@x.test" })).rejects.toBeInstanceOf(ConflictError);
    });
  });
}
