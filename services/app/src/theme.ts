// The colour scheme a browser chose on the account page: a cookie the server reads to write
// `data-theme` on every page's <html>, so the page comes dark or light at once (no script, no flash).
// No cookie: the page follows the system's setting (`prefers-color-scheme`).
import { setCookie } from "./http";

export type Theme = "light" | "dark";
export const THEMES = ["system", "light", "dark"] as const;
export type ThemeChoice = (typeof THEMES)[number];

export const THEME_COOKIE = "docshelf_theme";
/** A choice is remembered for a year in this browser. */
const THEME_MAX_AGE = 365 * 24 * 3600;

/** The theme a cookie's value names, or undefined (the system's) for anything else. */
export function themeOf(value: string | undefined): Theme | undefined {
  return value === "light" || value === "dark" ? value : undefined;
}

/** The Set-Cookie header remembering `choice` in this browser ("system" deletes the cookie). */
export function themeCookie(choice: ThemeChoice, secure: boolean): string {
  return choice === "system" ? setCookie(THEME_COOKIE, "", { secure, maxAge: 0 }) : setCookie(THEME_COOKIE, choice, { secure, maxAge: THEME_MAX_AGE });
}
