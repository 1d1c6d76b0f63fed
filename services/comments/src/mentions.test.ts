import { appLink } from "./comments.service";
import { MAX_MENTIONS, mentionedUserIds, mentionsAsText } from "./mentions";

describe("mentionedUserIds", () => {
  test("finds GitBook-style mentions, each id once, in order", () => {
    expect(mentionedUserIds("Hi @[Ada Lovelace](user:u1) and @[Bob](user:u2), again @[Ada](user:u1)")).toEqual(["u1", "u2"]);
  });

  test("plain @names, other links and malformed mentions are text", () => {
    expect(mentionedUserIds("@ada [Ada](user:u1) @[Ada](https://x/u1) @[Ada](user:) @[A\nda](user:u3) @[Ada](user:a b)")).toEqual([]);
  });

  test("stops at the cap", () => {
    const many = Array.from({ length: 500 }, (_, i) => `@[U${i}](user:u${i})`).join(" ");
    const ids = mentionedUserIds(many);
    expect(ids).toHaveLength(MAX_MENTIONS);
    expect(ids[0]).toBe("u0");
  });
});

test("mentionsAsText shows mentions by name", () => {
  expect(mentionsAsText("Hi @[Ada Lovelace](user:u1), see @x")).toBe("Hi @Ada Lovelace, see @x");
});

test("appLink: a change request's page, a space page's (segments encoded), or the space", () => {
  expect(appLink("sp1", 7, "guide/intro")).toBe("/s/sp1/~/changes/7#comments");
  expect(appLink("sp1", undefined, "guide/a b")).toBe("/s/sp1/guide/a%20b#comments");
  expect(appLink("sp1", undefined, undefined)).toBe("/s/sp1");
});
