// GitBook's socialAccounts in a site's customization: what parseCustomization takes and how each handle becomes a profile URL.
import { CustomizationError, defaultCustomization, mergeCustomization, parseCustomization, socialAccountUrl, SOCIAL_PLATFORMS } from "./customization";

const fieldOf = (body: unknown): string => {
  try {
    parseCustomization(body);
  } catch (err) {
    if (err instanceof CustomizationError) return err.path;
    throw err;
  }
  return "";
};

describe("social accounts", () => {
  test("are taken with display defaulted (footer only), answered by default as none, and replaced as a whole on merge", () => {
    const parsed = parseCustomization({ socialAccounts: [{ platform: "github", handle: "acme" }, { platform: "bluesky", handle: "acme.bsky.social", display: { header: true } }] });
    expect(parsed.socialAccounts).toEqual([
      { platform: "github", handle: "acme", display: { footer: true, header: false } },
      { platform: "bluesky", handle: "acme.bsky.social", display: { footer: true, header: true } },
    ]);
    expect(defaultCustomization().socialAccounts).toEqual([]);
    const merged = mergeCustomization(mergeCustomization(defaultCustomization(), parsed), parseCustomization({ socialAccounts: [] }));
    expect(merged.socialAccounts).toEqual([]);
  });

  test.each([
    [{ socialAccounts: "github" }, "socialAccounts"],
    [{ socialAccounts: Array.from({ length: 11 }, () => ({ platform: "github", handle: "a" })) }, "socialAccounts"],
    [{ socialAccounts: [{ platform: "x", handle: "a" }] }, "socialAccounts[0].platform"],
    [{ socialAccounts: [{ platform: "github", handle: "@a" }] }, "socialAccounts[0].handle"],
    [{ socialAccounts: [{ platform: "github", handle: "a/b" }] }, "socialAccounts[0].handle"],
    [{ socialAccounts: [{ platform: "slack", handle: "a.b" }] }, "socialAccounts[0].handle"],
    [{ socialAccounts: [{ platform: "mastodon", handle: "a@localhost" }] }, "socialAccounts[0].handle"],
    [{ socialAccounts: [{ platform: "github", handle: "a", display: { header: 1 } }] }, "socialAccounts[0].display.header"],
    [{ socialAccounts: [{ platform: "github", handle: "a", display: { sidebar: true } }] }, "socialAccounts[0].display.sidebar"],
    [{ socialAccounts: [{ platform: "github", handle: "a", href: "https://evil.example" }] }, "socialAccounts[0].href"],
  ])("%j is refused naming %s", (body, field) => {
    expect(fieldOf(body)).toBe(field);
  });

  test("every platform's handle becomes an https URL on that platform's host", () => {
    const urls = Object.fromEntries(SOCIAL_PLATFORMS.map((platform) => [platform, socialAccountUrl({ platform, handle: platform === "mastodon" ? "acme@Fosstodon.org" : platform === "bluesky" ? "acme.bsky.social" : "acme" })]));
    expect(urls).toEqual({
      twitter: "https://x.com/acme",
      instagram: "https://www.instagram.com/acme",
      facebook: "https://www.facebook.com/acme",
      linkedin: "https://www.linkedin.com/in/acme",
      github: "https://github.com/acme",
      discord: "https://discord.gg/acme",
      slack: "https://acme.slack.com",
      youtube: "https://www.youtube.com/@acme",
      tiktok: "https://www.tiktok.com/@acme",
      reddit: "https://www.reddit.com/user/acme",
      bluesky: "https://bsky.app/profile/acme.bsky.social",
      mastodon: "https://fosstodon.org/@acme",
      threads: "https://www.threads.net/@acme",
      medium: "https://medium.com/@acme",
    });
    expect(socialAccountUrl({ platform: "linkedin", handle: "company/acme" })).toBe("https://www.linkedin.com/company/acme");
    expect(socialAccountUrl({ platform: "reddit", handle: "r/acme" })).toBe("https://www.reddit.com/r/acme");
    expect(socialAccountUrl({ platform: "reddit", handle: "u/acme" })).toBe("https://www.reddit.com/user/acme");
  });
});
