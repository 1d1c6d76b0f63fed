import { normalizeEmoji } from "./emoji";

describe("normalizeEmoji", () => {
  test.each(["👍", "🎉", "👍🏽", "👨‍💻", "🇫🇷", "❤️", "#️⃣"])("accepts the emoji %s as it is", (emoji) => {
    expect(normalizeEmoji(emoji)).toBe(emoji);
  });

  test("gives a text-presentation character its emoji presentation", () => {
    expect(normalizeEmoji("❤")).toBe("❤️");
  });

  test("accepts code points in hex and stores the characters", () => {
    expect(normalizeEmoji("1f44d")).toBe("👍");
    expect(normalizeEmoji("1F468-200D-1F4BB")).toBe("👨‍💻");
  });

  test.each(["", "a", ":+1:", "👍👍", "👍 ", "12", "ffffffff", "x".repeat(51)])("refuses %j", (input) => {
    expect(normalizeEmoji(input)).toBeNull();
  });
});
