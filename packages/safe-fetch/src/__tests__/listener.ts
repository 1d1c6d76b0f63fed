// A 127.0.0.x HTTP listener for tests that counts the connections it receives.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Listener {
  origin: string;
  port: number;
  connections: () => number;
  requests: http.IncomingMessage[];
  close: () => Promise<void>;
}

export async function listen(handler: http.RequestListener, host = "127.0.0.1", port = 0): Promise<Listener> {
  const requests: http.IncomingMessage[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    requests.push(req);
    handler(req, res);
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const { port: actual } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${actual}`,
    port: actual,
    connections: () => connections,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
