import { exactTime, relativeTime, timeOf } from "./time";

const NOW = Date.parse("2026-03-10T12:00:00.000Z");

describe("times as people read them", () => {
  test.each([
    ["2026-03-10T11:59:30.000Z", "just now"],
    ["2026-03-10T12:00:30.000Z", "just now"],
    ["2026-03-10T11:59:00.000Z", "1 minute ago"],
    ["2026-03-10T11:15:00.000Z", "45 minutes ago"],
    ["2026-03-10T09:00:00.000Z", "3 hours ago"],
    ["2026-03-09T12:00:01.000Z", "23 hours ago"],
    ["2026-03-09T12:00:00.000Z", "yesterday"],
    ["2026-03-08T12:00:01.000Z", "yesterday"],
    ["2026-03-08T12:00:00.000Z", "2 days ago"],
    ["2026-03-03T12:00:01.000Z", "6 days ago"],
    ["2026-03-03T12:00:00.000Z", "3 Mar 2026"],
    ["2024-12-31T23:59:59.000Z", "31 Dec 2024"],
    ["not a time", "not a time"],
  ])("%s is %s", (iso, said) => {
    expect(relativeTime(iso, NOW)).toBe(said);
  });

  test("the exact UTC time is the title, the relative one the text", () => {
    expect(timeOf("2026-03-10T08:59:59.123Z", NOW).value).toBe('<time datetime="2026-03-10T08:59:59.123Z" title="2026-03-10 08:59:59 UTC">3 hours ago</time>');
    expect(exactTime("2026-03-10T08:59:59.123Z")).toBe("2026-03-10 08:59:59 UTC");
    expect(timeOf(undefined, NOW).value).toContain("unknown time");
    expect(timeOf(12, NOW).value).toContain("unknown time");
  });

  test("a time is escaped", () => {
    expect(timeOf('"><b>x', NOW).value).not.toContain("<b>");
  });
});
