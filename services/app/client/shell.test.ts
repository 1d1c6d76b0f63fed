import { ranked, score, spaceOfPath, type JumpItem } from "./jump-dialog";
import { insertMention, mentionAt, mentionOf } from "./mention-suggest";

const item = (title: string, where = "Acme", kind: JumpItem["kind"] = "page"): JumpItem => ({ kind, title, where, url: `/x/${title}` });

describe("the jump dialog's matching", () => {
  test("every word must match the title or where it is; a title's start ranks first", () => {
    expect(score(item("Getting started"), "start")).toBe(3);
    expect(score(item("Getting started"), "getting")).toBe(4);
    expect(score(item("Restart"), "start")).toBe(2);
    expect(score(item("Billing", "Handbook"), "hand bill")).toBe(1);
    expect(score(item("Billing"), "nothing")).toBe(-1);
    expect(score(item("Billing"), "  ")).toBe(1);
  });

  test("ranked keeps the list's order at equal scores and shows at most 50", () => {
    const items = [item("Restart"), item("Start here"), item("A start")];
    expect(ranked(items, "start").map((i) => i.title)).toEqual(["Start here", "A start", "Restart"]);
    expect(ranked(Array.from({ length: 80 }, (_, i) => item(`Page ${i}`)), "")).toHaveLength(50);
  });

  test("the space of an app path", () => {
    expect(spaceOfPath("/s/abc123/welcome")).toBe("abc123");
    expect(spaceOfPath("/s/abc123")).toBe("abc123");
    expect(spaceOfPath("/o/abc123")).toBeUndefined();
  });
});

describe("@ suggestions", () => {
  test("the @query before the caret, only at a word's start", () => {
    expect(mentionAt("Hi @gra", 7)).toEqual({ start: 3, query: "gra" });
    expect(mentionAt("@", 1)).toEqual({ start: 0, query: "" });
    expect(mentionAt("mail me at a@b", 14)).toBeUndefined();
    expect(mentionAt("Hi @grace and", 13)).toBeUndefined();
    expect(mentionAt("(@x", 3)).toEqual({ start: 1, query: "x" });
  });

  test("GitBook's mention syntax, the name unable to end it early", () => {
    expect(mentionOf({ id: "u1", name: "Grace Hopper" })).toBe("@[Grace Hopper](user:u1)");
    expect(mentionOf({ id: "u1", name: "a]b\n[c" })).toBe("@[a b  c](user:u1)");
    expect(mentionOf({ id: "u1", name: "" })).toBe("@[u1](user:u1)");
  });

  test("inserting replaces the @query and puts the caret after it", () => {
    expect(insertMention("Hi @gra, look", 3, 7, { id: "u1", name: "Grace" })).toEqual({ value: "Hi @[Grace](user:u1) , look", caret: 21 });
  });
});
