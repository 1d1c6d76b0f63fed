// Server-side syntax highlighting with highlight.js: classes only (`hljs-keyword`…), no inline style, so
// the pages' strict CSP holds and the colours (light and dark) live in the site's stylesheet.
import hljs from "highlight.js";

/** GitBook's syntax names that highlight.js spells differently. */
const ALIASES: Record<string, string> = {
  "c#": "csharp",
  "c++": "cpp",
  "objective-c": "objectivec",
  "objc": "objectivec",
  "shell-session": "shell",
  "console": "shell",
  "zsh": "bash",
  "terminal": "bash",
  "cmd": "dos",
  "batch": "dos",
  "ps": "powershell",
  "ps1": "powershell",
  "jsonc": "json",
  "json5": "json",
  "vue": "xml",
  "svelte": "xml",
  "liquid": "xml",
  "text": "plaintext",
  "txt": "plaintext",
  "plain": "plaintext",
  "gql": "graphql",
  "tf": "hcl",
  "terraform": "hcl",
  "proto": "protobuf",
  "kt": "kotlin",
};

/** Code longer than this is shown without colours: highlighting is linear but not free. */
const MAX_HIGHLIGHT = 200_000;

/** The highlight.js language for a block's syntax, or undefined when there is none. */
export function languageOf(syntax: string | undefined): string | undefined {
  if (!syntax) return undefined;
  const name = syntax.trim().toLowerCase();
  const lang = ALIASES[name] ?? name;
  return hljs.getLanguage(lang) ? lang : undefined;
}

function escapeCode(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);
}

/**
 * The code as HTML lines: each line's spans closed at its end and opened again on the next line, so a
 * comment or string spanning lines stays coloured and every line can be numbered on its own.
 */
export function highlightLines(code: string, syntax: string | undefined): { lines: string[]; language?: string } {
  const language = languageOf(syntax);
  if (!language || language === "plaintext" || code.length > MAX_HIGHLIGHT) return { lines: code.split("\n").map(escapeCode), language };
  let html: string;
  try {
    html = hljs.highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    return { lines: code.split("\n").map(escapeCode), language };
  }
  const lines: string[] = [];
  const open: string[] = [];
  let current = "";
  const tag = /<span class="[^"]*">|<\/span>|\n/g;
  let at = 0;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    current += html.slice(at, m.index);
    at = m.index + m[0].length;
    if (m[0] === "\n") {
      lines.push(current + "</span>".repeat(open.length));
      current = open.join("");
    } else if (m[0] === "</span>") {
      open.pop();
      current += m[0];
    } else {
      open.push(m[0]);
      current += m[0];
    }
  }
  current += html.slice(at);
  lines.push(current + "</span>".repeat(open.length));
  return { lines, language };
}
