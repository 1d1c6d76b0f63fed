// The baseline of site-edge.ts: bare node:http answering every request with the very bytes (body and headers)
// that docshelf answered for a public page. BARE_BODY and BARE_HEADERS name files the bench wrote; PORT, HOST.
import { createServer } from "node:http";
import { readFileSync } from "node:fs";

const body = readFileSync(process.env.BARE_BODY ?? "");
const headers = JSON.parse(readFileSync(process.env.BARE_HEADERS ?? "", "utf8")) as Record<string, string | string[]>;
for (const name of Object.keys(headers)) if (name.toLowerCase() === "content-length") delete headers[name];
headers["Content-Length"] = String(body.length);

createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
}).listen(Number(process.env.PORT), process.env.HOST ?? "127.0.0.1");
