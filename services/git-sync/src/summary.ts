// GitBook's SUMMARY.md: `##` headings are page groups, nested list links are pages (link text = title).
export interface SummaryItem {
  title: string;
  /** The link target as written (relative to SUMMARY.md), without its #anchor; absent for a group or a plain item. */
  href?: string;
  /** The link target exactly as written. */
  target?: string;
  group?: boolean;
  children: SummaryItem[];
}

const ITEM = /^(\s*)[*+-]\s+(.*)$/;
const LINK = /^\[((?:[^\]\\]|\\.)*)\]\(\s*(?:<([^>]*)>|([^)\s]*))(?:\s+"[^"]*")?\s*\)/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;

function unescape(text: string): string {
  return text.replace(/\\(.)/g, "$1").trim();
}

/** The tree SUMMARY.md describes. Items before the first `##` are top-level pages; `#` (the title) is ignored. */
export function parseSummary(text: string): SummaryItem[] {
  const roots: SummaryItem[] = [];
  let container = roots;
  // Open list items with their indentation, innermost last.
  let stack: Array<{ indent: number; item: SummaryItem }> = [];
  let inFence = false;
  for (const raw of text.replace(/^\uFEFF/, "").split(/\r?\n/)) {
    const line = raw.replace(/\t/g, "    ");
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const heading = HEADING.exec(line);
    if (heading) {
      if (heading[1].length === 1) continue;
      const group: SummaryItem = { title: unescape(heading[2]), group: true, children: [] };
      roots.push(group);
      container = group.children;
      stack = [];
      continue;
    }
    const item = ITEM.exec(line);
    if (!item) continue;
    const indent = item[1].length;
    const link = LINK.exec(item[2].trim());
    const entry: SummaryItem = link
      ? { title: unescape(link[1]), children: [] }
      : { title: unescape(item[2]), children: [] };
    const target = link ? (link[2] ?? link[3]) : undefined;
    if (target) entry.target = target;
    if (target && /^[a-z][a-z0-9+.-]*:/i.test(target)) entry.href = target;
    else if (target) {
      const href = decodeHref(target.split("#")[0]);
      if (href) entry.href = href;
    }
    while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
    const parent = stack[stack.length - 1];
    (parent ? parent.item.children : container).push(entry);
    stack.push({ indent, item: entry });
  }
  return roots;
}

function decodeHref(href: string): string {
  try {
    return decodeURI(href);
  } catch {
    return href;
  }
}

function escapeTitle(title: string): string {
  return title.replace(/([\\[\]])/g, "\\$1");
}

function encodeHref(path: string): string {
  return path.split("/").map((part) => encodeURIComponent(part)).join("/");
}

/** SUMMARY.md text for a tree: top-level pages first, then one `##` section per group. */
export function buildSummary(items: SummaryItem[]): string {
  const lines = ["# Table of contents", ""];
  const list = (entries: SummaryItem[], depth: number) => {
    for (const entry of entries) {
      const href = entry.target ?? (entry.href && /^[a-z][a-z0-9+.-]*:/i.test(entry.href) ? entry.href : entry.href ? encodeHref(entry.href) : undefined);
      const text = href ? `[${escapeTitle(entry.title)}](${href})` : escapeTitle(entry.title);
      lines.push(`${"  ".repeat(depth)}* ${text}`);
      list(entry.children, depth + 1);
    }
  };
  for (const item of items) {
    if (item.group) {
      if (lines[lines.length - 1] !== "") lines.push("");
      lines.push(`## ${item.title.replace(/\n/g, " ")}`, "");
      list(item.children, 0);
    } else list([item], 0);
  }
  return `${lines.join("\n")}\n`;
}
