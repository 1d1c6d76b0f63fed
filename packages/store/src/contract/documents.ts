// Part of the store contract (index.ts) — Documents: insert, find, findOne and the shapes that round-trip.
import { ConflictError } from "@docshelf/errors";
import { newId } from "../ids";
import { type Harness, type Rec } from "./harness";

export function documentsContract(h: Harness): void {
  const { openStore, uniqueName, fresh, seed } = h;
  describe("documents", () => {
    test("an inserted document round-trips with id and without _id", async () => {
      const c = await fresh();
      const id = newId();
      const inserted = await c.insert({ id, name: "Ada", nested: { a: 1, list: [1, "two"] }, flag: false, none: null });
      expect(inserted).toEqual({ id, name: "Ada", nested: { a: 1, list: [1, "two"] }, flag: false, none: null });
      const found = await c.findOne({ id });
      expect(found).toEqual(inserted);
      expect(found).not.toHaveProperty("_id");
      const [listed] = await c.find({ id });
      expect(listed).toEqual(inserted);
      expect(listed).not.toHaveProperty("_id");
    });

    test("findOne returns null when no document matches", async () => {
      const c = await fresh();
      await seed(c, [{ name: "a" }]);
      expect(await c.findOne({ name: "b" })).toBeNull();
      expect(await c.findOne({ id: newId() })).toBeNull();
    });

    test("a read by id alone and a read by id with other fields agree, and both see an update once it answered", async () => {
      const c = await fresh();
      const [a] = await seed(c, [{ name: "a", nested: { n: 1 } }]);
      expect(await c.findOne({ id: a.id, name: "b" })).toBeNull();
      expect(await c.findOne({ id: a.id, name: "a" })).toEqual(a);
      await c.updateOne({ id: a.id }, { $set: { name: "b" } });
      expect(await c.findOne({ id: a.id })).toEqual({ ...a, name: "b" });
      expect(await c.findOne({ id: a.id, name: undefined })).toEqual({ ...a, name: "b" });
      await c.deleteOne({ id: a.id });
      expect(await c.findOne({ id: a.id })).toBeNull();
    });

    test("inserting a second document with the same id throws a 409 ConflictError", async () => {
      const c = await fresh();
      const [a] = await seed(c, [{ name: "a" }]);
      const err = await c.insert({ id: a.id, name: "b" }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConflictError);
      expect(err).toMatchObject({ code: 409 });
      expect(await c.findOne({ id: a.id })).toEqual(a);
    });

    test("changing a document after inserting or reading it does not change what is stored", async () => {
      const c = await fresh();
      const input: Rec = { id: newId(), name: "kept", tags: ["x"] };
      const inserted = await c.insert(input);
      input.name = "changed";
      (input.tags as string[]).push("y");
      inserted.name = "changed too";
      const read = await c.findOne({ id: input.id });
      read!.name = "changed as well";
      (read!.tags as string[]).push("z");
      expect(await c.findOne({ id: input.id })).toEqual({ id: input.id, name: "kept", tags: ["x"] });
    });

    test("a collection opened twice in one store shares its documents", async () => {
      const store = await openStore();
      const name = uniqueName();
      const first = await fresh([], store, name);
      const second = await fresh([], store, name);
      const [doc] = await seed(first, [{ name: "shared" }]);
      expect(await second.findOne({ id: doc.id })).toEqual(doc);
      await second.updateOne({ id: doc.id }, { $set: { name: "changed" } });
      expect(await first.findOne({ id: doc.id })).toEqual({ id: doc.id, name: "changed" });
    });

    test("a closed store says it is not open", async () => {
      const store = await openStore();
      expect(store.isOpen()).toBe(true);
      await store.close();
      expect(store.isOpen()).toBe(false);
    });

    // Maps stored inside documents (Git sync's redirects, keyed by paths) take any string as a key.
    const ANY_KEYS = ["2.1-setup/overview", "b.-appendix.md", "$where", "$", "a$b", "", "..", "%2E", "100%", "\uE000x", "\uE000", "__proto__", "constructor", "图/安装.md", "ünï cødé", "a\u0000b", "🙂.md"];
    const anyMap = () => Object.fromEntries(ANY_KEYS.map((k, i) => [k, `v${i}`]));
    const own = (value: unknown) => Object.entries(value as Record<string, unknown>);

    test("maps inside documents keep any string key: inserted, read by id, found, updated with $set and $push", async () => {
      const c = await fresh();
      const id = newId();
      const map = JSON.parse(JSON.stringify(anyMap())) as Record<string, string>;
      const doc = { id, kind: "links", map, nested: { deeper: [{ list: map }] } };
      const inserted = await c.insert(doc);
      expect(own(inserted.map)).toEqual(own(map));
      for (const read of [await c.findOne({ id }), await c.findOne({ id, kind: "links" }), (await c.find({ kind: "links" }))[0]]) {
        expect(own(read!.map)).toEqual(own(map));
        expect(own((read!.nested as { deeper: Array<{ list: unknown }> }).deeper[0].list)).toEqual(own(map));
        expect(Object.getPrototypeOf(read!.map)).toBe(Object.prototype);
      }
      const changed = { ...JSON.parse(JSON.stringify(anyMap())), "new.key": "n" } as Record<string, string>;
      const updated = await c.updateOne({ id }, { $set: { map: changed }, $push: { events: { "at.time": 1, $op: "x" } } });
      expect(own(updated!.map)).toEqual(own(changed));
      expect(updated!.events).toEqual([{ "at.time": 1, $op: "x" }]);
      const again = await c.findOne({ id });
      expect(own(again!.map)).toEqual(own(changed));
      expect(again!.events).toEqual([{ "at.time": 1, $op: "x" }]);
      // Ordinary field paths still filter (the encoding touches only keys that need it).
      expect(await c.count({ kind: "links" })).toBe(1);
    });
  });
}
