// The body and query shape limits.
import { checkBody, checkQuery, findViolation } from "./request-limits";

const limits = { maxDepth: 3, maxArrayLength: 4, maxStringBytes: 10 };

function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

describe("findViolation", () => {
  test("a body within every limit passes", () => {
    expect(findViolation({ a: [1, 2, { b: "short" }], c: null }, limits)).toBeNull();
  });

  test("nesting deeper than the limit is named with its path", () => {
    expect(findViolation(nested(3), limits)).toBeNull();
    expect(findViolation(nested(4), limits)).toEqual({ limit: "depth", path: "$.a.a.a" });
  });

  test("arrays count as levels too", () => {
    expect(findViolation([[[1]]], limits)).toBeNull();
    expect(findViolation([[[[1]]]], limits)).toEqual({ limit: "depth", path: "$[0][0][0]" });
  });

  test("an array longer than the limit is refused", () => {
    expect(findViolation({ list: [1, 2, 3, 4, 5] }, limits)).toEqual({ limit: "arrayLength", path: "$.list" });
  });

  test("strings and keys are measured in UTF-8 bytes", () => {
    expect(findViolation({ s: "0123456789" }, limits)).toBeNull();
    expect(findViolation({ s: "01234567890" }, limits)).toEqual({ limit: "stringBytes", path: "$.s" });
    expect(findViolation({ s: "ééééé" }, limits)).toBeNull(); // 10 bytes
    expect(findViolation({ s: "éééééé" }, limits)).toEqual({ limit: "stringBytes", path: "$.s" });
    expect(findViolation({ ["k".repeat(11)]: 1 }, limits)).toEqual({ limit: "stringBytes", path: "$.kkkkkkkkkkk" });
  });

  test("a very deep body is refused without overflowing the stack", () => {
    expect(findViolation(nested(100_000), { maxDepth: 32, maxArrayLength: 10, maxStringBytes: 10 })).toMatchObject({ limit: "depth" });
  });
});

describe("checkBody", () => {
  test("a violation is a 400 whose message names the place, the limit and its variable", () => {
    expect(() => checkBody(nested(4), limits)).toThrow(
      expect.objectContaining({ code: 400, message: "The request body at '$.a.a.a' is nested deeper than 3 levels (limit JSON_MAX_DEPTH)." }),
    );
    expect(() => checkBody({ list: [1, 2, 3, 4, 5] }, limits)).toThrow(expect.objectContaining({ message: expect.stringMatching(/more than 4 elements \(limit JSON_MAX_ARRAY_LENGTH\)/) }));
    expect(() => checkBody({ s: "x".repeat(11) }, limits)).toThrow(expect.objectContaining({ message: expect.stringMatching(/longer than 10 bytes \(limit JSON_MAX_STRING_BYTES\)/) }));
  });
});

describe("checkQuery", () => {
  test("an array that qs turned into an object keyed by index counts its keys as items", () => {
    const asObject = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [String(i), "x"]));
    expect(() => checkQuery({ authors: asObject }, 2, 100)).toThrow(expect.objectContaining({ code: 400, message: expect.stringMatching(/more than 100 items/) }));
  });

  test("plain and shallow parameters pass", () => {
    expect(() => checkQuery({ limit: "10", authors: ["a", "b"], filter: { a: { b: "1" } } }, 2, 100)).not.toThrow();
  });

  test("a parameter nested deeper than the limit is 400", () => {
    expect(() => checkQuery({ filter: { a: { b: { c: "1" } } } }, 2, 100)).toThrow(expect.objectContaining({ code: 400, message: expect.stringMatching(/'filter'.*deeper than 2 levels \(limit QUERY_MAX_DEPTH\)/) }));
  });

  test("a parameter with too many items is 400", () => {
    expect(() => checkQuery({ authors: Array.from({ length: 101 }, (_, i) => `a${i}`) }, 2, 100)).toThrow(expect.objectContaining({ code: 400, message: "The query parameter 'authors' has more than 100 items (limit QUERY_MAX_ARRAY_LENGTH)." }));
  });
});
