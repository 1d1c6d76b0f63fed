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
    expect(looksOf(customization)).toEqual({ logo: "", favicon: "", primaryColor: "#346DDB", theme: "light", toggle: true });
    expect(looksOf({})).toEqual({ logo: "", favicon: "", primaryColor: "", theme: "light", toggle: true });
  });

  test("is written into it with everything else kept, and read back the same", () => {
    const written = withLooks(customization, form);
    expect(written.header).toEqual({ preset: "default", links: [{ title: "Home" }], logo: { light: form.logo, dark: form.logo } });
    expect(written.styling).toEqual({ primaryColor: { light: "#c30", dark: "#c30" }, font: "Inter" });
    expect(written.themes).toEqual({ default: "dark", toggeable: false });
    expect(written.footer).toBe(customization.footer);
    expect(looksOf(written)).toEqual({ logo: form.logo, favicon: "", primaryColor: "#c30", theme: "dark", toggle: false });
    // An empty logo removes it.
    expect(withLooks(written, { ...form, logo: "" }).header).toEqual({ preset: "default", links: [{ title: "Home" }] });
  });

  test.each([
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
