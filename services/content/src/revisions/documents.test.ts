import { op, openStore, type Store, type Collection } from "@docshelf/store";
import { collections, type DocumentDoc } from "../models";
import { documentIdOf, PART_CHARS, readDocument, readDocuments, removeDocument, storeDocuments } from "./documents";

describe("page bodies in the store", () => {
  let store: Store;
  let documents: Collection<DocumentDoc>;
  beforeEach(async () => {
    store = await openStore("content", { memory: true });
    documents = await store.collection<DocumentDoc>(collections.documents);
  });
  afterEach(() => store.close());

  const body = (chars: number, seed: string) => {
    let text = "";
    for (let i = 0; text.length < chars; i++) text += `${seed} line ${i} of the long page.\n`;
    return text.slice(0, chars);
  };

  test("a short body is one record; a long one is written in parts, a part per turn of the event loop, and read back whole", async () => {
    const short = "# Short\n\nHi.";
    const long = body(PART_CHARS * 3 + 123, "long");
    const bodies = new Map([short, long].map((md) => [documentIdOf(md), md]));
    let turns = 0;
    let running = true;
    const tick = () => {
      if (!running) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    await storeDocuments(documents, bodies, "2026-01-01T00:00:00.000Z");
    running = false;
    expect(turns).toBeGreaterThanOrEqual(4);
    const head = await documents.findOne({ id: documentIdOf(long) });
    expect(head).toMatchObject({ markdown: "", parts: 4 });
    const parts = await documents.find({ id: op.in([0, 1, 2, 3].map((n) => `${documentIdOf(long)}.${n}`)) });
    expect(parts.map((p) => p.markdown.length).sort((a, b) => b - a)).toEqual([PART_CHARS, PART_CHARS, PART_CHARS, 123]);
    expect(await documents.findOne({ id: documentIdOf(short) })).toMatchObject({ markdown: short });
    expect(await readDocument(documents, documentIdOf(long))).toBe(long);
    expect(await readDocument(documents, documentIdOf(short))).toBe(short);
    expect(await readDocument(documents, "0".repeat(64))).toBeUndefined();
    expect(await readDocuments(documents, [documentIdOf(short), documentIdOf(long), "0".repeat(64)])).toEqual(
      new Map([
        [documentIdOf(short), short],
        [documentIdOf(long), long],
      ]),
    );
  });

  test("storing the same long body again writes nothing new; removing it removes its parts", async () => {
    const long = body(PART_CHARS * 2 + 1, "again");
    const id = documentIdOf(long);
    await storeDocuments(documents, new Map([[id, long]]), "2026-01-01T00:00:00.000Z");
    const count = await documents.count({});
    await storeDocuments(documents, new Map([[id, long]]), "2026-01-02T00:00:00.000Z");
    expect(await documents.count({})).toBe(count);
    expect(count).toBe(4);
    await removeDocument(documents, id);
    expect(await documents.count({})).toBe(0);
    expect(await readDocument(documents, id)).toBeUndefined();
  });
});
