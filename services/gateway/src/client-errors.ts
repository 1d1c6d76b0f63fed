// Answers the requests Node's HTTP parser refuses before the gateway sees them (a request line or
// headers over the header size limit, a malformed request) in the one error body, not a bare status line.
import type { Server } from "node:http";
import type { Duplex } from "node:stream";

const REASONS: Record<number, string> = { 400: "Bad Request", 408: "Request Timeout", 431: "Request Header Fields Too Large" };

/** The status and message for a parser error code. */
export function clientErrorAnswer(code: string | undefined): { status: number; message: string } {
  if (code === "HPE_HEADER_OVERFLOW") return { status: 431, message: "The request line and headers are too large (a URL this long is no request of this API)." };
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") return { status: 408, message: "The request took too long to arrive." };
  return { status: 400, message: "The request is malformed." };
}

export function answerClientErrors(server: Server): void {
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    // A connection the client already dropped has nobody to answer.
    if (err.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, message } = clientErrorAnswer(err.code);
    const body = JSON.stringify({ error: { code: status, message } });
    socket.end(
      `HTTP/1.1 ${status} ${REASONS[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  });
}
