// The few fields of a site's customization (GitBook's SiteCustomizationSettings) its page edits: logo,
// favicon, primary colour, theme and social accounts, read out of it and written back into it, the rest kept
// as it was.
import type * as sites from "@docshelf/contracts/sites";
import { badForm } from "./page-error";

const COLOR = /^#(?:[0-9a-fA-F]{3}){1,2}$/;

export type Looks = { logo: string; favicon: string; primaryColor: string; theme: "light" | "dark"; toggle: boolean; social: string };

/** At most this many social accounts (GitBook's SiteSocialAccounts). */
const MAX_SOCIAL = 10;

/**
 * The social accounts as the form's text: one a line, `platform handle` and where it shows (`header`, `footer`;
 * GitBook's default when neither is said: the footer), e.g. `github acme header footer`.
 */
function socialText(accounts: unknown): string {
  if (!Array.isArray(accounts)) return "";
  return accounts
    .map((a) => {
      const account = record(a);
      const display = record(account.display);
      const places = [display.header === true ? "header" : "", display.footer !== false ? "footer" : ""].filter(Boolean);
      return [account.platform, account.handle, ...places].join(" ");
    })
    .join("\n");
}

/** The form's social accounts text as GitBook's socialAccounts; the sites service checks platforms and handles (a 400 naming the entry). */
function socialAccounts(form: Record<string, string>): Array<{ platform: string; handle: string; display: { header: boolean; footer: boolean } }> {
  const lines = (form.social ?? "").split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  if (lines.length > MAX_SOCIAL) throw badForm(`Social accounts ('social') are at most ${MAX_SOCIAL}, one a line.`);
  return lines.map((line) => {
    const [platform, handle, ...places] = line.split(/\s+/);
    if (!handle || places.some((p) => p !== "header" && p !== "footer")) {
      throw badForm(`Each social account ('social') is a line "platform handle", then header and/or footer, e.g. "github acme header footer"; not "${line.slice(0, 100)}".`);
    }
    return { platform: platform.toLowerCase(), handle, display: { header: places.includes("header"), footer: places.includes("footer") || !places.length } };
  });
}

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The few fields of a site's customization the page edits. */
export function looksOf(customization: sites.SiteCustomization): Looks {
  const light = (v: unknown) => (typeof record(v).light === "string" ? (record(v).light as string) : "");
  const themes = record(customization.themes);
  return {
    logo: light(record(customization.header).logo),
    favicon: light(record(customization.favicon).icon),
    primaryColor: light(record(customization.styling).primaryColor),
    theme: themes.default === "dark" ? "dark" : "light",
    toggle: themes.toggeable !== false,
    social: socialText(customization.socialAccounts),
  };
}

/** An image address the look form takes: empty (none) or an https:// (or http://) URL. */
function imageUrl(form: Record<string, string>, field: string, label: string): string {
  const value = (form[field] ?? "").trim();
  if (value.length > 2048) throw badForm(`${label} ('${field}') is at most 2048 characters.`);
  if (!value) return "";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badForm(`${label} ('${field}') must be an https:// address of an image.`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw badForm(`${label} ('${field}') must be an https:// address of an image.`);
  return value;
}

/** The customization with the look form's fields written in (the rest kept as it was). */
export function withLooks(customization: sites.SiteCustomization, form: Record<string, string>): sites.SiteCustomization {
  const logo = imageUrl(form, "logo", "The logo");
  const favicon = imageUrl(form, "favicon", "The favicon");
  const primaryColor = (form.primaryColor ?? "").trim();
  if (!COLOR.test(primaryColor)) throw badForm("The primary colour ('primaryColor') is #rgb or #rrggbb, e.g. #346DDB.");
  if (form.theme !== "light" && form.theme !== "dark") throw badForm("Pick the light or the dark theme ('theme').");
  const social = socialAccounts(form);
  const header = { ...record(customization.header) };
  if (logo) header.logo = { light: logo, dark: logo };
  else delete header.logo;
  const favicons = { ...record(customization.favicon) };
  if (favicon) favicons.icon = { light: favicon, dark: favicon };
  else delete favicons.icon;
  return {
    ...customization,
    header,
    favicon: favicons,
    styling: { ...record(customization.styling), primaryColor: { light: primaryColor, dark: primaryColor } },
    themes: { ...record(customization.themes), default: form.theme, toggeable: form.toggle === "on" },
    socialAccounts: social,
  };
}

