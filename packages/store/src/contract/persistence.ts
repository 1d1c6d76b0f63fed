// Part of the store contract (index.ts) — Persistence: what a store keeps when closed and opened again (adapters that persist).
import { ConflictError } from "@docshelf/errors";
import { newId } from "../ids";
import type { IndexSpec } from "../types";
import { type Harness } from "./harness";

export function persistenceContract(h: Harness): void {
  const { openStore, uniqueName, fresh, seed } = h;
  describe("persistence", () => {
    test("documents, updates, deletions and unique indexes survive closing and reopening the store", async () => {
      const name = uniqueName();
      const indexes: IndexSpec[] = [{ fields: ["email"], unique: true }];
      const store = await openStore();
      const c = await fresh(indexes, store, name);
      const [a, b, cc] = await seed(c, [{ email: "a@x.test", n: 1 }, { email: "b@x.test", n: 2 }, { email: "c@x.test", n: 3 }]);
      await c.updateOne({ id: a.id }, { $inc: { n: 10 }, $set: { tags: ["t"] } });
      await c.deleteOne({ id: b.id });
      await store.close();
      expect(store.isOpen()).toBe(false);

      const reopened = await openStore();
      const again = await fresh(indexes, reopened, name);
      expect(await again.find({})).toEqual([{ ...a, n: 11, tags: ["t"] }, cc]);
      await expect(again.insert({ id: newId(), email: "c@x.test" })).rejects.toBeInstanceOf(ConflictError);
      await reopened.close();

      const third = await openStore();
      expect(await (await fresh(indexes, third, name)).count({})).toBe(2);
    });

    test("any map key (dots, dollars, empty, __proto__) reads back the same after reopening", async () => {
      const name = uniqueName();
      const store = await openStore();
      const c = await fresh([], store, name);
      const map = JSON.parse('{"2.1-setup/overview":"a","$ref":"b","":"c","__proto__":"d","\\ue000e":"e","ordinary":"f"}') as Record<string, string>;
      const [doc] = await seed(c, [{ map }]);
      await c.updateOne({ id: doc.id }, { $set: { other: { "a.b": 1 } } });
      await store.close();
      const reopened = await openStore();
      const read = await (await fresh([], reopened, name)).findOne({ id: doc.id });
      expect(Object.entries(read!.map as object)).toEqual(Object.entries(map));
      expect(read!.other).toEqual({ "a.b": 1 });
      await reopened.close();
    });
  });
}
