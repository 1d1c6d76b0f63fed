// Child processes of the benchmark: started here, tracked, and always stopped (also on error or Ctrl-C).
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, Socket } from "node:net";
import { request } from "node:http";
import { readFileSync } from "node:fs";

const children = new Set<Child>();

export interface Child {
  name: string;
  proc: ChildProcess;
  /** The last lines the child wrote, for error messages. */
  tail(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

const TAIL_LINES = 40;

export function startChild(name: string, args: string[], env: NodeJS.ProcessEnv): Child {
  const proc = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (!line) continue;
      lines.push(line);
      if (lines.length > TAIL_LINES) lines.shift();
    }
  };
  // Always drained, so a chatty child never blocks on a full pipe.
  proc.stdout?.on("data", keep);
  proc.stderr?.on("data", keep);
  let exited = proc.exitCode !== null || proc.signalCode !== null;
  const gone = new Promise<void>((resolve) => {
    proc.once("exit", () => {
      exited = true;
      resolve();
    });
    proc.once("error", (err) => {
      lines.push(`spawn error: ${err.message}`);
      exited = true;
      resolve();
    });
  });
  const child: Child = {
    name,
    proc,
    tail: () => lines.join("\n"),
    async stop(graceMs = 12_000) {
      if (!exited) {
        proc.kill("SIGTERM");
        const timer = setTimeout(() => {
          if (!exited) proc.kill("SIGKILL");
        }, graceMs);
        await gone;
        clearTimeout(timer);
      }
      children.delete(child);
    },
  };
  children.add(child);
  return child;
}

export function isRunning(child: Child): boolean {
  return child.proc.exitCode === null && child.proc.signalCode === null;
}

/** Stops every child still running, in parallel. */
export async function stopAll(): Promise<void> {
  await Promise.all([...children].map((c) => c.stop()));
}

/** Last resort on exit: synchronous SIGKILL of whatever is left. */
export function killAllNow(): void {
  for (const child of children) {
    if (isRunning(child)) {
      try {
        child.proc.kill("SIGKILL");
      } catch {
        /* already gone */
      }
    }
  }
  children.clear();
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no free port"))));
    });
  });
}

const LOOPBACK = /^(127(\.\d{1,3}){3}|localhost|\[?::1\]?)$/i;

export function isLoopback(hostname: string): boolean {
  return LOOPBACK.test(hostname);
}

/** Whether a NATS server answers at `url`: a TCP connect and its INFO line. */
export function natsReachable(url: string, timeoutMs = 1500): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("error", () => done(false));
    socket.once("data", (chunk) => done(chunk.toString().startsWith("INFO")));
    socket.connect(Number(port) || 4222, hostname.replace(/^\[|\]$/g, ""));
  });
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One HTTP request to a loopback URL, with a timeout. */
export function http(method: string, url: string, headers: Record<string, string> = {}, body?: unknown, timeoutMs = 5000): Promise<HttpAnswer> {
  const target = new URL(url);
  if (!isLoopback(target.hostname)) return Promise.reject(new Error(`refusing a non-loopback address: ${target.hostname}`));
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method,
        headers: { ...headers, ...(payload ? { "Content-Type": "application/json", "Content-Length": String(payload.length) } : {}) },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`${method} ${url} timed out after ${timeoutMs} ms`)));
    req.on("error", reject);
    if (payload) req.write(payload);
    req.end();
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 100 ms until it is true; fails after `deadlineMs` or as soon as a watched child dies. */
export async function waitUntil(what: string, check: () => Promise<boolean>, deadlineMs: number, watch: Child[] = []): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    const dead = watch.find((c) => !isRunning(c));
    if (dead) throw new Error(`${dead.name} exited while waiting for ${what}:\n${dead.tail()}`);
    if (await check().catch(() => false)) return;
    await sleep(100);
  }
  const tails = watch.map((c) => `--- ${c.name}\n${c.tail()}`).join("\n");
  throw new Error(`timed out after ${deadlineMs} ms waiting for ${what}\n${tails}`);
}

const CLK_TCK = 100;

/** CPU time (user + system) a process has used so far, in ms, from /proc (Linux); NaN elsewhere or once it is gone. */
export function cpuTimeMs(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name may hold spaces: fields are counted after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return ((utime + stime) * 1000) / CLK_TCK;
  } catch {
    return NaN;
  }
}

/** CPU time every process on the machine has used so far (all cores, busy only), in ms, from /proc/stat; NaN elsewhere. */
export function machineBusyMs(): number {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n")[0];
    const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    return ((user + nice + system + irq + softirq + steal) * 1000) / CLK_TCK;
  } catch {
    return NaN;
  }
}
