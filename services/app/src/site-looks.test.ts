import { PageError, refusalMessage } from "./page-error";
import { looksOf, withLooks } from "./site-looks";

const customization = {
  title: "Docs",
  styling: { primaryColor: { light: "#346DDB", dark: "#346DDB" }, font: "Inter" },
  header: { preset: "default", links: [{ title: "Home" }] },
  favicon: {},
  themes: { default: "light", toggeable: true },
  footer: { groups: [] },
};
const form = { logo: "https://cdn.example.com/logo.png", favicon: "", primaryColor: "#c30", theme: "dark", toggle: "" };

describe("a site's look", () => {
  test("is read out of its customization, defaults where a field is missing", () => {
    expect(looksOf(customization)).toEqual({ logo: "", favicon: "", primaryColor: "#346DDB", theme: "light", toggle: true, social: "" });
    expect(looksOf({})).toEqual({ logo: "", favicon: "", primaryColor: "", theme: "light", toggle: true, social: "" });
  });

  test("is written into it with everything else kept, and read back the same", () => {
    const written = withLooks(customization, form);
    expect(written.header).toEqual({ preset: "default", links: [{ title: "Home" }], logo: { light: form.logo, dark: form.logo } });
    expect(written.styling).toEqual({ primaryColor: { light: "#c30", dark: "#c30" }, font: "Inter" });
    expect(written.themes).toEqual({ default: "dark", toggeable: false });
    expect(written.footer).toBe(customization.footer);
    expect(looksOf(written)).toEqual({ logo: form.logo, favicon: "", primaryColor: "#c30", theme: "dark", toggle: false, social: "" });
    // An empty logo removes it.
    expect(withLooks(written, { ...form, logo: "" }).header).toEqual({ preset: "default", links: [{ title: "Home" }] });
  });

  test("social accounts: one a line, `platform handle` then header and/or footer (the footer when neither), read back the same", () => {
    const written = withLooks(customization, { ...form, social: "github acme header footer\r\n\n  Mastodon acme@fosstodon.org  \ntwitter acme header" });
    expect(written.socialAccounts).toEqual([
      { platform: "github", handle: "acme", display: { header: true, footer: true } },
      { platform: "mastodon", handle: "acme@fosstodon.org", display: { header: false, footer: true } },
      { platform: "twitter", handle: "acme", display: { header: true, footer: false } },
    ]);
    expect(looksOf(written).social).toBe("github acme header footer\nmastodon acme@fosstodon.org footer\ntwitter acme header");
    expect(withLooks(written, { ...form, social: looksOf(written).social }).socialAccounts).toEqual(written.socialAccounts);
    expect(withLooks(written, { ...form, social: "" }).socialAccounts).toEqual([]);
  });

  test.each([
    ["social", "github"],
    ["social", "github acme sidebar"],
    ["social", Array.from({ length: 11 }, (_, i) => `github a${i}`).join("\n")],
    ["logo", "javascript:alert(1)"],
    ["favicon", "not a url"],
    ["logo", `https://x.example/${"a".repeat(2048)}`],
    ["primaryColor", "red"],
    ["primaryColor", "#12345"],
    ["theme", "blue"],
  ])("refuses %s = %s with a 400 naming the field", (field, value) => {
    let thrown: unknown;
    try {
      withLooks(customization, { ...form, [field]: value });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(PageError);
    expect((thrown as PageError).status).toBe(400);
    expect((thrown as PageError).message).toContain(`'${field}'`);
  });
});

describe("an action's refusal in words", () => {
  test("a validation error names its fields instead of its generic message", () => {
    const err = Object.assign(new Error("Parameters validation error!"), { code: 422, data: [{ field: "domain", message: "The 'domain' field must be a domain name." }] });
    expect(refusalMessage(err)).toBe("The 'domain' field must be a domain name.");
  });

  test("any other refusal is its message", () => {
    expect(refusalMessage(Object.assign(new Error("Invalid parameters: 'hostname': taken."), { code: 400 }))).toBe("Invalid parameters: 'hostname': taken.");
    expect(refusalMessage(new Error(""))).toBe("The request was refused.");
  });
});
