// Page markdown: front matter and a leading `# heading` become page metadata; variables are substituted on request.

export interface ParsedMarkdown {
  title?: string;
  description?: string;
  /** The body without front matter and without the leading heading that gave the title. */
  body: string;
  /** Other front matter keys, as strings. */
  fields: Record<string, string>;
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

function unquote(value: string): string {
  const v = value.trim();
  if (v.length >= 2 && ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'")))) return v.slice(1, -1);
  return v;
}

export function parseMarkdown(markdown: string): ParsedMarkdown {
  let rest = markdown;
  const fields: Record<string, string> = {};
  const fm = FRONT_MATTER.exec(rest);
  if (fm) {
    for (const line of fm[1].split(/\r?\n/)) {
      const m = /^([A-Za-z][\w-]*)\s*:\s*(.*)$/.exec(line);
      if (m) fields[m[1]] = unquote(m[2]);
    }
    rest = rest.slice(fm[0].length);
  }
  const result: ParsedMarkdown = { body: rest, fields };
  const heading = /^\s*#[ \t]+(.+?)[ \t]*#*[ \t]*(?:\r?\n|$)/.exec(rest);
  if (heading) {
    result.title = heading[1].trim();
    result.body = rest.slice(heading[0].length).replace(/^\s*\n/, "");
  }
  if (fields.title) result.title = fields.title;
  if (fields.description) result.description = fields.description;
  delete fields.title;
  delete fields.description;
  return result;
}

/**
 * Substitutes `{{ space.vars.NAME }}` and `{{ page.vars.NAME }}` expressions, and GitBook's own Markdown for an
 * expression, `<code class="expression">space.vars.NAME</code>` (what its Git sync writes). Unknown variables
 * are left as written so a reader sees what is missing.
 */
export function evaluateMarkdown(markdown: string, spaceVars: Record<string, string>, pageVars: Record<string, string>): string {
  const pattern = /\{\{\s*(space|page)\.vars\.([A-Za-z_][\w-]*)\s*\}\}|<code class="expression">\s*(space|page)\.vars\.([A-Za-z_][\w-]*)\s*<\/code>/g;
  return markdown.replace(pattern, (whole, braceScope: string | undefined, braceName: string | undefined, codeScope: string | undefined, codeName: string | undefined) => {
    const scope = braceScope ?? codeScope;
    const name = (braceName ?? codeName) as string;
    const vars = scope === "space" ? spaceVars : pageVars;
    return Object.prototype.hasOwnProperty.call(vars, name) ? String(vars[name]) : whole;
  });
}

export interface MarkdownLink {
  href: string;
  image: boolean;
}

/** Every inline link and image of the markdown, outside code. */
export function extractLinks(markdown: string): MarkdownLink[] {
  const text = markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  const links: MarkdownLink[] = [];
  const re = /(!?)\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) links.push({ href: m[2], image: m[1] === "!" });
  // GitBook's file blocks and figures link to their files too.
  for (const m of text.matchAll(/\{%\s*file\s+src="([^"]+)"/g)) links.push({ href: m[1], image: false });
  for (const m of text.matchAll(/<img\s[^>]*?src="([^"]+)"/g)) links.push({ href: m[1], image: true });
  return links;
}
