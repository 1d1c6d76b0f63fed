// Bytes of an HTML page to text, in the charset the server or the page itself declares.

function charsetOfContentType(contentType: string | undefined): string | undefined {
  return /;\s*charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? "")?.[1];
}

/** `<meta charset="…">` or `<meta http-equiv="content-type" content="…; charset=…">` near the top. */
function charsetOfMeta(body: Buffer): string | undefined {
  const head = body.subarray(0, 2048).toString("latin1");
  return /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
}

export function decodeHtml(body: Buffer, contentType: string | undefined): string {
  const label = charsetOfContentType(contentType) ?? charsetOfMeta(body) ?? "utf-8";
  try {
    return new TextDecoder(label).decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body); // an unknown label: read it as UTF-8
  }
}
