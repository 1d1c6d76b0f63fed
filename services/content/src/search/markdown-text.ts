// Markdown to the plain text that is indexed and shown in excerpts.

const rules: Array<[RegExp, string]> = [
  [/^\s{0,3}(```|~~~).*$/gm, ""], // code fence markers (the code itself stays searchable)
  [/<!--[\s\S]*?-->/g, " "], // HTML comments
  [/\{%[\s\S]*?%\}/g, " "], // GitBook block tags ({% hint %}, {% endhint %}, ...)
  [/!\[([^\]]*)\]\([^)]*\)/g, "$1"], // images: keep the alt text
  [/\[([^\]]*)\]\([^)]*\)/g, "$1"], // links: keep the label
  [/\[([^\]]*)\]\[[^\]]*\]/g, "$1"], // reference links
  [/^\s{0,3}\[[^\]]+\]:\s*\S+.*$/gm, ""], // link reference definitions
  [/<\/?[A-Za-z][^>]*>/g, " "], // inline HTML tags
  [/^\s{0,3}#{1,6}\s+/gm, ""], // heading markers
  [/^\s{0,3}>\s?/gm, ""], // blockquotes
  [/^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/gm, ""], // list markers and task boxes
  [/^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$/gm, ""], // table separator rows
  [/\|/g, " "], // table cell borders
  [/^\s{0,3}(?:[-*_]\s*){3,}$/gm, ""], // thematic breaks
  [/(\*\*|__|~~)(.+?)\1/g, "$2"], // strong and strikethrough
  [/(^|[^\w*])[*_]([^*_\n]+)[*_](?=[^\w*]|$)/g, "$1$2"], // emphasis
  [/`+([^`]*)`+/g, "$1"], // inline code
  [/\\([\\`*_{}[\]()#+\-.!|>])/g, "$1"], // escapes
];

export function markdownToText(markdown: string): string {
  let text = markdown;
  for (const [pattern, replacement] of rules) text = text.replace(pattern, replacement);
  return text
    .split("\n")
    .map((line) => line.replace(/[ \t]+/g, " ").trim())
    .filter((line) => line.length > 0)
    .join("\n");
}
