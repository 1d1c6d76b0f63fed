// A loopback server that the run's shared systems may reach: it listens on one of the ports global-setup.js reserved
// for that (test/shared-ports.js), the first one no other suite of the run holds. Binding is the claim: two suites
// beside each other never get the same port, and the port is free again when the server closes.
import type { Server } from "node:http";

export async function listenOnSharedPort(server: Server): Promise<number> {
  const ports = (process.env.DOCSHELF_SHARED_LOOPBACK_PORTS ?? "").split(",").filter(Boolean).map(Number);
  if (ports.length === 0) throw new Error("DOCSHELF_SHARED_LOOPBACK_PORTS is unset: the end-to-end suites' global setup (test/global-setup.js) reserves them");
  for (const port of ports) {
    const bound = await new Promise<boolean>((resolve, reject) => {
      const failed = (err: NodeJS.ErrnoException) => (err.code === "EADDRINUSE" ? resolve(false) : reject(err));
      server.once("error", failed);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", failed);
        resolve(true);
      });
    });
    if (bound) return port;
  }
  throw new Error(`every loopback port the shared systems allow is held (${ports.join(", ")})`);
}
