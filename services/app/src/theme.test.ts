import { layout } from "./pages/layout";
import { STYLESHEET } from "./pages/style";
import { themeCookie, themeOf } from "./theme";

describe("the theme cookie", () => {
  test("only light and dark are themes; anything else is the system's", () => {
    expect(themeOf("light")).toBe("light");
    expect(themeOf("dark")).toBe("dark");
    for (const value of [undefined, "", "system", "Dark", '"><script>', "dark "]) expect(themeOf(value)).toBeUndefined();
  });

  test("a choice lasts a year in this browser; the system's deletes it", () => {
    expect(themeCookie("dark", true)).toBe("docshelf_theme=dark; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000; Secure");
    expect(themeCookie("system", false)).toBe("docshelf_theme=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
  });
});

describe("the layout's scheme", () => {
  test("no choice: the system's (both schemes); a choice: fixed on <html> and in color-scheme", () => {
    const system = layout("T", { csrf: "c", userId: "u" }, "x");
    expect(system).toContain('<html lang="en">');
    expect(system).toContain('<meta name="color-scheme" content="light dark">');
    const dark = layout("T", { csrf: "c", userId: "u", theme: "dark" }, "x");
    expect(dark).toContain('<html lang="en" data-theme="dark">');
    expect(dark).toContain('<meta name="color-scheme" content="dark">');
  });

  test("the small script only on signed-in pages, and only when built", () => {
    expect(layout("T", { csrf: "c", userId: "u", script: "/app/assets/shell-ABCDEFGH.js" }, "x")).toContain('<script src="/app/assets/shell-ABCDEFGH.js" defer></script>');
    expect(layout("T", { csrf: "c", script: "/app/assets/shell-ABCDEFGH.js" }, "x")).not.toContain("<script");
    expect(layout("T", { csrf: "c", userId: "u" }, "x")).not.toContain("<script");
  });

  test("every colour of the stylesheet's rules is a custom property, set in both schemes", () => {
    const rules = STYLESHEET.replace(/:root\{[^}]*\}|@media \(prefers-color-scheme: dark\)\{[^{]*\{[^}]*\}\}|:root\[data-theme=dark\][^{]*\{[^}]*\}/g, "");
    // Outside the two palettes, hard-coded colours are only those drawn on their own fixed backgrounds (the merge button, the unread count).
    const fixed = rules.match(/#[0-9a-fA-F]{3,6}\b/g) ?? [];
    expect([...new Set(fixed)].sort()).toEqual(["#1a7f37", "#a3161a", "#fff"]);
    const used = new Set([...rules.matchAll(/var\((--[a-z-]+)\)/g)].map((m) => m[1]));
    const [light, dark] = [/:root\{([^}]*)\}/.exec(STYLESHEET)![1], /:root\[data-theme=dark\][^{]*\{([^}]*)\}/.exec(STYLESHEET)![1]];
    for (const name of used) {
      expect({ name, light: light.includes(`${name}:`) }).toEqual({ name, light: true });
      expect({ name, dark: dark.includes(`${name}:`) }).toEqual({ name, dark: true });
    }
  });
});
