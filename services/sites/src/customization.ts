// A site's customization (GitBook's SiteCustomizationSettings): the defaults, and the checks and merge
// of what `PUT …/customization` stores over them.
export interface Customization {
  title?: string;
  styling: Record<string, unknown>;
  internationalization: { locale: string };
  favicon: { icon?: { light: string; dark: string }; emoji?: string };
  header: { preset: string; links: unknown[]; logo?: { light: string; dark: string } };
  footer: { groups: unknown[]; copyright?: string; logo?: { light: string; dark: string } };
  announcement?: { enabled: boolean; message: string; style: string; link?: { title: string; to: Record<string, unknown> } };
  themes: { default: "light" | "dark"; toggeable: boolean };
  pdf: { enabled: boolean };
  feedback: { enabled: boolean };
  ai: { mode: string };
  advancedCustomization: { enabled: boolean };
  trademark: { enabled: boolean };
  externalLinks: { target: string };
  pagination: { enabled: boolean };
  pageActions: { externalAI: boolean; markdown: boolean; mcp: boolean };
  git: { showEditLink: boolean };
  privacyPolicy: Record<string, never>;
  socialPreview: Record<string, never>;
  socialAccounts: SocialAccount[];
  insights: { trackingCookie: boolean };
}

/** GitBook's SiteSocialAccountPlatform (@gitbook/api-latest's enum). */
export const SOCIAL_PLATFORMS = [
  "twitter", "instagram", "facebook", "linkedin", "github", "discord", "slack", "youtube", "tiktok", "reddit", "bluesky", "mastodon", "threads", "medium",
] as const;
export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number];

/** GitBook's SiteSocialAccount: a handle on a platform, shown in the header and/or the footer. */
export interface SocialAccount {
  platform: SocialPlatform;
  handle: string;
  display: { footer: boolean; header: boolean };
}

/** GitBook's SiteSocialAccounts: at most 10. */
export const MAX_SOCIAL_ACCOUNTS = 10;

/**
 * What a handle may be on each platform (GitBook: 1 to 128 characters, "without prefixes like the @ symbol"):
 * a name of letters, digits, `.`, `_` and `-`; on Mastodon `user@instance.host`; on Bluesky a domain-like name;
 * on LinkedIn and Reddit optionally the kind of page first (`company/acme`, `r/acme`); on Slack a workspace's
 * subdomain. Nothing that could leave the platform's host once made a URL (socialAccountUrl).
 */
const NAME = "[A-Za-z0-9_][A-Za-z0-9._-]{0,127}";
const HOST = "(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}";
const HANDLE_PATTERNS: Record<SocialPlatform, RegExp> = {
  twitter: new RegExp(`^${NAME}$`),
  instagram: new RegExp(`^${NAME}$`),
  facebook: new RegExp(`^${NAME}$`),
  linkedin: new RegExp(`^(?:(?:in|company|school|showcase)/)?${NAME}$`),
  github: new RegExp(`^${NAME}$`),
  discord: new RegExp(`^${NAME}$`),
  slack: /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/,
  youtube: new RegExp(`^${NAME}$`),
  tiktok: new RegExp(`^${NAME}$`),
  reddit: new RegExp(`^(?:(?:r|u|user)/)?${NAME}$`),
  bluesky: new RegExp(`^${HOST}$`),
  mastodon: new RegExp(`^${NAME}@${HOST}$`),
  threads: new RegExp(`^${NAME}$`),
  medium: new RegExp(`^${NAME}$`),
};

/** The profile URL of a handle checked by HANDLE_PATTERNS (the handle's characters need no escaping in a URL path). */
export function socialAccountUrl(account: { platform: SocialPlatform; handle: string }): string {
  const { handle } = account;
  switch (account.platform) {
    case "twitter": return `https://x.com/${handle}`;
    case "instagram": return `https://www.instagram.com/${handle}`;
    case "facebook": return `https://www.facebook.com/${handle}`;
    case "linkedin": return `https://www.linkedin.com/${handle.includes("/") ? handle : `in/${handle}`}`;
    case "github": return `https://github.com/${handle}`;
    case "discord": return `https://discord.gg/${handle}`;
    case "slack": return `https://${handle.toLowerCase()}.slack.com`;
    case "youtube": return `https://www.youtube.com/@${handle}`;
    case "tiktok": return `https://www.tiktok.com/@${handle}`;
    case "reddit": return `https://www.reddit.com/${handle.includes("/") ? handle.replace(/^u\//, "user/") : `user/${handle}`}`;
    case "bluesky": return `https://bsky.app/profile/${handle.toLowerCase()}`;
    case "mastodon": {
      const [user, host] = handle.split("@");
      return `https://${host.toLowerCase()}/@${user}`;
    }
    case "threads": return `https://www.threads.net/@${handle}`;
    case "medium": return `https://medium.com/@${handle}`;
  }
}

const color = (light: string, dark: string) => ({ light, dark });

export function defaultCustomization(title?: string): Customization {
  const customization: Customization = {
    styling: {
      theme: "clean",
      primaryColor: color("#346DDB", "#346DDB"),
      infoColor: color("#787878", "#787878"),
      successColor: color("#00C950", "#00C950"),
      warningColor: color("#FE9A00", "#FE9A00"),
      dangerColor: color("#FB2C36", "#FB2C36"),
      corners: "rounded",
      depth: "subtle",
      links: "default",
      font: "Inter",
      monospaceFont: "IBMPlexMono",
      background: "plain",
      icons: "regular",
      sidebar: { background: "default", list: "default" },
      search: "subtle",
    },
    internationalization: { locale: "en" },
    favicon: {},
    header: { preset: "default", links: [] },
    footer: { groups: [] },
    themes: { default: "light", toggeable: true },
    pdf: { enabled: true },
    feedback: { enabled: false },
    ai: { mode: "search" },
    advancedCustomization: { enabled: true },
    trademark: { enabled: true },
    externalLinks: { target: "self" },
    pagination: { enabled: true },
    pageActions: { externalAI: true, markdown: true, mcp: true },
    git: { showEditLink: false },
    privacyPolicy: {},
    socialPreview: {},
    socialAccounts: [],
    insights: { trackingCookie: true },
  };
  if (title && title.length >= 2) customization.title = title;
  return customization;
}

/** Top-level members of GitBook's SiteCustomizationSettings: nothing else is accepted. */
export const CUSTOMIZATION_KEYS = [
  "title", "styling", "internationalization", "favicon", "header", "footer", "announcement", "themes", "pdf", "feedback", "ai",
  "advancedCustomization", "git", "pageActions", "externalLinks", "pagination", "trademark", "privacyPolicy", "socialPreview", "socialAccounts", "insights",
] as const;

/** Footer links sit 7 levels down (footer.groups[i].links[j].to.url); nothing GitBook defines goes deeper than 8. */
const MAX_DEPTH = 8;
const MAX_STRING = 2048;
const MAX_ARRAY = 50;
export const MAX_CUSTOMIZATION_BYTES = 64 * 1024;
export const COLOR_PATTERN = /^#(?:[0-9a-fA-F]{3}){1,2}$/;
const ANNOUNCEMENT_STYLES = ["info", "warning", "danger", "success"];

/** A rule was broken at `path` (a dotted JSON path): the message names it. */
export class CustomizationError extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`'${path}' ${reason}`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === "object" && !Array.isArray(value);
}

/** Generic bounds: plain JSON, strings, arrays and nesting limited. */
function checkBounds(value: unknown, path: string, depth: number): void {
  if (depth > MAX_DEPTH) throw new CustomizationError(path, "is nested too deeply");
  if (typeof value === "string") {
    if (value.length > MAX_STRING) throw new CustomizationError(path, `must be at most ${MAX_STRING} characters`);
  } else if (Array.isArray(value)) {
    if (value.length > MAX_ARRAY) throw new CustomizationError(path, `must have at most ${MAX_ARRAY} items`);
    value.forEach((item, i) => checkBounds(item, `${path}[${i}]`, depth + 1));
  } else if (isObject(value)) {
    for (const [key, inner] of Object.entries(value)) checkBounds(inner, `${path}.${key}`, depth + 1);
  } else if (value !== null && typeof value !== "boolean" && typeof value !== "number") {
    throw new CustomizationError(path, "is not a JSON value");
  }
}

function at(root: Record<string, unknown>, path: string): unknown {
  let current: unknown = root;
  for (const key of path.split(".")) current = isObject(current) ? current[key] : undefined;
  return current;
}

function checkString(root: Record<string, unknown>, path: string, min: number, max: number): void {
  const value = at(root, path);
  if (value === undefined || value === null) return;
  if (typeof value !== "string" || value.length < min || value.length > max) throw new CustomizationError(path, `must be a string of ${min} to ${max} characters`);
}

function checkUrl(value: unknown, path: string): void {
  if (value === undefined || value === null) return;
  if (typeof value !== "string" || !/^https?:\/\/[^\s]+$/i.test(value)) throw new CustomizationError(path, "must be an http or https URL");
}

function checkLinks(links: unknown, path: string): void {
  if (links === undefined) return;
  if (!Array.isArray(links)) throw new CustomizationError(path, "must be an array");
  links.forEach((link, i) => {
    if (!isObject(link)) throw new CustomizationError(`${path}[${i}]`, "must be an object");
    if (typeof link.title !== "string" || link.title.length > 64) throw new CustomizationError(`${path}[${i}].title`, "must be a string of at most 64 characters");
    if (!isObject(link.to) || typeof link.to.kind !== "string") throw new CustomizationError(`${path}[${i}].to`, "must be a content reference with a kind");
    if (link.to.kind === "url") checkUrl(link.to.url, `${path}[${i}].to.url`);
  });
}

/**
 * Checks a customization body loosely against GitBook's SiteCustomizationSettings: known top-level
 * members only, each an object (title a string), bounded sizes, and strictly what the served pages
 * use (colors, logo URLs, announcement, footer links). Throws CustomizationError naming the path.
 */
export function parseCustomization(body: unknown): Record<string, unknown> {
  if (!isObject(body)) throw new CustomizationError("body", "must be an object");
  if (Buffer.byteLength(JSON.stringify(body)) > MAX_CUSTOMIZATION_BYTES) throw new CustomizationError("body", `must be at most ${MAX_CUSTOMIZATION_BYTES} bytes of JSON`);
  for (const [key, value] of Object.entries(body)) {
    if (!(CUSTOMIZATION_KEYS as readonly string[]).includes(key)) throw new CustomizationError(key, "is not a customization setting");
    if (key === "socialAccounts") continue;
    if (key !== "title" && !isObject(value)) throw new CustomizationError(key, "must be an object");
    checkBounds(value, key, 1);
  }
  checkString(body, "title", 2, 128);
  for (const name of ["primaryColor", "infoColor", "successColor", "warningColor", "dangerColor"]) {
    const color = at(body, `styling.${name}`);
    if (color === undefined) continue;
    if (!isObject(color)) throw new CustomizationError(`styling.${name}`, "must be {light, dark}");
    for (const mode of ["light", "dark"]) {
      if (typeof color[mode] !== "string" || !COLOR_PATTERN.test(color[mode] as string)) throw new CustomizationError(`styling.${name}.${mode}`, "must be a #hex color");
    }
  }
  for (const mode of ["light", "dark"]) {
    checkUrl(at(body, `header.logo.${mode}`), `header.logo.${mode}`);
    checkUrl(at(body, `footer.logo.${mode}`), `footer.logo.${mode}`);
    checkUrl(at(body, `favicon.icon.${mode}`), `favicon.icon.${mode}`);
  }
  checkString(body, "favicon.emoji", 1, 64);
  const announcement = at(body, "announcement");
  if (announcement !== undefined) {
    if (!isObject(announcement) || typeof announcement.enabled !== "boolean") throw new CustomizationError("announcement.enabled", "must be a boolean");
    checkString(body, "announcement.message", 2, 128);
    if (announcement.style !== undefined && !ANNOUNCEMENT_STYLES.includes(announcement.style as string)) {
      throw new CustomizationError("announcement.style", `must be one of ${ANNOUNCEMENT_STYLES.join(", ")}`);
    }
    if (announcement.link !== undefined) checkLinks([announcement.link], "announcement.link");
  }
  const headerLinks = at(body, "header.links");
  if (headerLinks !== undefined) {
    if (!Array.isArray(headerLinks)) throw new CustomizationError("header.links", "must be an array");
    headerLinks.forEach((item, i) => {
      const path = `header.links[${i}]`;
      if (!isObject(item) || typeof item.title !== "string" || item.title.length > 64) throw new CustomizationError(`${path}.title`, "must be a string of at most 64 characters");
      if (item.to !== undefined && item.to !== null) {
        if (!isObject(item.to) || typeof item.to.kind !== "string") throw new CustomizationError(`${path}.to`, "must be a content reference with a kind, or null");
        if (item.to.kind === "url") checkUrl(item.to.url, `${path}.to.url`);
      }
      if (item.style !== undefined && !["link", "button-primary", "button-secondary"].includes(item.style as string)) throw new CustomizationError(`${path}.style`, "must be link, button-primary or button-secondary");
      if (item.condition !== undefined && typeof item.condition !== "string") throw new CustomizationError(`${path}.condition`, "must be a string");
      checkLinks(item.links ?? [], `${path}.links`);
    });
  }
  checkString(body, "footer.copyright", 0, 300);
  const groups = at(body, "footer.groups");
  if (groups !== undefined) {
    if (!Array.isArray(groups)) throw new CustomizationError("footer.groups", "must be an array");
    groups.forEach((group, i) => {
      if (!isObject(group) || typeof group.title !== "string" || group.title.length > 64) throw new CustomizationError(`footer.groups[${i}].title`, "must be a string of at most 64 characters");
      checkLinks(group.links ?? [], `footer.groups[${i}].links`);
    });
  }
  if (body.socialAccounts !== undefined) body.socialAccounts = parseSocialAccounts(body.socialAccounts);
  return body;
}

/**
 * GitBook's SiteSocialAccounts, checked: at most 10 entries of {platform, handle, display}, nothing else; a
 * missing `display` (or a member of it) takes GitBook's defaults (footer true, header false). Answers the
 * entries as stored, `display` complete.
 */
export function parseSocialAccounts(value: unknown): SocialAccount[] {
  if (!Array.isArray(value)) throw new CustomizationError("socialAccounts", "must be an array");
  if (value.length > MAX_SOCIAL_ACCOUNTS) throw new CustomizationError("socialAccounts", `must have at most ${MAX_SOCIAL_ACCOUNTS} items`);
  return value.map((entry, i) => {
    const path = `socialAccounts[${i}]`;
    if (!isObject(entry)) throw new CustomizationError(path, "must be an object");
    for (const key of Object.keys(entry)) {
      if (!["platform", "handle", "display"].includes(key)) throw new CustomizationError(`${path}.${key}`, "is not a member of a social account");
    }
    if (typeof entry.platform !== "string" || !(SOCIAL_PLATFORMS as readonly string[]).includes(entry.platform)) {
      throw new CustomizationError(`${path}.platform`, `must be one of ${SOCIAL_PLATFORMS.join(", ")}`);
    }
    const platform = entry.platform as SocialPlatform;
    if (typeof entry.handle !== "string" || entry.handle.length < 1 || entry.handle.length > 128 || !HANDLE_PATTERNS[platform].test(entry.handle)) {
      throw new CustomizationError(`${path}.handle`, `must be a ${platform} handle of 1 to 128 characters without a leading @${platform === "mastodon" ? " (user@instance)" : ""}`);
    }
    const display = entry.display ?? {};
    if (!isObject(display)) throw new CustomizationError(`${path}.display`, "must be {footer, header}");
    for (const key of Object.keys(display)) {
      if (key !== "footer" && key !== "header") throw new CustomizationError(`${path}.display.${key}`, "is not a display option");
      if (typeof display[key] !== "boolean") throw new CustomizationError(`${path}.display.${key}`, "must be a boolean");
    }
    return { platform, handle: entry.handle, display: { footer: (display.footer as boolean | undefined) ?? true, header: (display.header as boolean | undefined) ?? false } };
  });
}

/** `over` merged into `base`: objects member by member, anything else (arrays included) replaced. */
export function mergeCustomization(base: Customization, over: Record<string, unknown>): Customization {
  const merge = (a: unknown, b: unknown): unknown => {
    if (!isObject(a) || !isObject(b)) return b === undefined ? a : b;
    const out: Record<string, unknown> = { ...a };
    for (const [key, value] of Object.entries(b)) out[key] = merge(a[key], value);
    return out;
  };
  return merge(base, over) as Customization;
}
