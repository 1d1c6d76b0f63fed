// The live collaboration relay's bounds, on a real HTTP server with `ws` clients and a fake gateway around it:
// who gets in (the grant), frame size, frames per second, connections per user, per page and in all, text
// frames, relaying within a room and never across rooms, to other processes, and the room's end.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import WebSocket from "ws";
import { CLOSE, COLLAB_PROTOCOL, CollabRelay, DEFAULT_COLLAB_LIMITS, FrameBudget, awarenessClients, collabTarget, offeredCsrf, type CollabGrant, type CollabHost, type CollabLimits } from "./collab";

const CSRF = "c".repeat(43);

interface World {
  relay: CollabRelay;
  server: Server;
  url: string;
  published: Array<{ room: string; frame: Buffer; text?: boolean }>;
  grants: Map<string, CollabGrant>;
  remote: { peers: number };
}

async function world(limits: Partial<CollabLimits> = {}): Promise<World> {
  const published: World["published"] = [];
  const grants = new Map<string, CollabGrant>();
  const remote = { peers: 0 };
  const host: CollabHost = {
    // The page path names the user in these tests: /app/collab/space/1/{user}-{room}
    async authorize(target) {
      return grants.get(target.pagePath) ?? { status: 404, message: "Not found." };
    },
    async remotePeers() {
      return remote.peers;
    },
    publish: (room, frame, text) => published.push({ room, frame, text }),
    transporterFrameLimit: () => undefined,
    warn: () => undefined,
  };
  const relay = new CollabRelay(host, { ...DEFAULT_COLLAB_LIMITS, ...limits });
  const server = createServer((_req, res) => res.end());
  server.on("upgrade", (req, socket, head) => void relay.upgrade(req, socket, head));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { relay, server, url, published, grants, remote };
}

function grant(w: World, path: string, userId: string, room: string): void {
  w.grants.set(path, { status: 200, room, userId, name: userId, color: 1 });
}

/** Opens a connection; resolves with it and its hello once open, or with the refusal's HTTP status. */
function connect(w: World, path: string, protocols: string[] = [COLLAB_PROTOCOL, `csrf.${CSRF}`]): Promise<{ ws: WebSocket; hello: Record<string, unknown>; frames: Buffer[]; texts: string[] } | number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${w.url}/app/collab/space1/1/${path}`, protocols);
    const frames: Buffer[] = [];
    const texts: string[] = [];
    ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    ws.on("error", () => undefined);
    ws.on("message", (data, isBinary) => {
      if (!isBinary) {
        const text = data.toString();
        const parsed = JSON.parse(text) as Record<string, unknown>;
        if (parsed.type === "hello") resolve({ ws, hello: parsed, frames, texts });
        else texts.push(text);
      } else frames.push(data as Buffer);
    });
    setTimeout(() => reject(new Error("no answer")), 5000).unref();
  });
}

function opened<T>(answer: T | number): T {
  if (typeof answer === "number") throw new Error(`refused: ${answer}`);
  return answer;
}

const closed = (ws: WebSocket) => new Promise<number>((resolve) => ws.on("close", (code) => resolve(code)));
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe("the collaboration relay", () => {
  let w: World;
  afterEach(async () => {
    w.relay.close();
    await new Promise((resolve) => w.server.close(resolve));
  });

  test("relays a frame to the room's other connections, never to another room, and to the other processes", async () => {
    w = await world();
    grant(w, "a", "alice", "room1");
    grant(w, "b", "bob", "room1");
    grant(w, "c", "carol", "room2");
    const a = opened(await connect(w, "a"));
    expect(a.hello).toMatchObject({ type: "hello", peers: 0, user: { name: "alice", color: 1 } });
    const b = opened(await connect(w, "b"));
    expect(b.hello.peers).toBe(1);
    const c = opened(await connect(w, "c"));
    a.ws.send(Buffer.from([0, 2, 1, 7]));
    await until(() => b.frames.length === 1);
    expect(b.frames[0]).toEqual(Buffer.from([0, 2, 1, 7]));
    expect(a.frames).toEqual([]);
    expect(c.frames).toEqual([]);
    expect(w.published).toEqual([{ room: "room1", frame: Buffer.from([0, 2, 1, 7]), text: undefined }]);
    // A frame from another process reaches this process's connections of the room.
    w.relay.deliver("room2", Buffer.from([0, 9]));
    await until(() => c.frames.length === 1);
    expect(c.frames[0]).toEqual(Buffer.from([0, 9]));
    for (const x of [a, b, c]) x.ws.close();
  });

  test("tells every connection to a page of a change request, and none of another, that its content changed", async () => {
    w = await world();
    grant(w, "a", "alice", "sp1/cr1/page1");
    grant(w, "b", "bob", "sp1/cr1/page2");
    grant(w, "c", "carol", "sp1/cr10/page1");
    grant(w, "d", "dave", "sp2/cr1/page1");
    const [a, b, c, d] = [opened(await connect(w, "a")), opened(await connect(w, "b")), opened(await connect(w, "c")), opened(await connect(w, "d"))];
    expect(w.relay.contentChanged("sp1", "cr1", "rev2")).toBe(2);
    await until(() => a.texts.length === 1 && b.texts.length === 1);
    for (const x of [a, b]) expect(x.texts.map((t) => JSON.parse(t))).toEqual([{ type: "changed", revision: "rev2" }]);
    // Text, never a binary (Yjs) frame; another change request (a longer id with the same start) and another space hear nothing.
    expect(a.frames).toEqual([]);
    expect(c.texts).toEqual([]);
    expect(d.texts).toEqual([]);
    // Nothing goes to the other processes: each gateway hears the event itself.
    expect(w.published).toEqual([]);
    expect(w.relay.contentChanged("sp3", "cr1", "rev1")).toBe(0);
    for (const x of [a, b, c, d]) x.ws.close();
  });

  test("counts the other processes' connections to the room in the hello", async () => {
    w = await world();
    grant(w, "a", "alice", "room1");
    w.remote.peers = 2;
    const a = opened(await connect(w, "a"));
    expect(a.hello.peers).toBe(2);
    a.ws.close();
  });

  test("refuses an upgrade as the app says, and without the subprotocol or a CSRF token", async () => {
    w = await world();
    w.grants.set("reader", { status: 403, message: "no" });
    w.grants.set("signed-out", { status: 401, message: "no" });
    expect(await connect(w, "reader")).toBe(403);
    expect(await connect(w, "signed-out")).toBe(401);
    expect(await connect(w, "unknown")).toBe(404);
    grant(w, "a", "alice", "room1");
    expect(await connect(w, "a", ["chat"])).toBe(403);
    expect(await connect(w, "a", [COLLAB_PROTOCOL])).toBe(403);
  });

  test("closes a connection that sends a frame over the size limit, a text frame, or too many frames", async () => {
    w = await world({ maxMessageBytes: 1000, messagesPerSecond: 1, messageBurst: 5 });
    grant(w, "a", "alice", "room1");
    const big = opened(await connect(w, "a"));
    const bigClosed = closed(big.ws);
    big.ws.send(Buffer.alloc(1001));
    expect(await bigClosed).toBe(CLOSE.TOO_BIG);

    const text = opened(await connect(w, "a"));
    const textClosed = closed(text.ws);
    text.ws.send("hello");
    expect(await textClosed).toBe(CLOSE.UNSUPPORTED);

    const chatty = opened(await connect(w, "a"));
    const chattyClosed = closed(chatty.ws);
    for (let i = 0; i < 7; i++) chatty.ws.send(Buffer.from([0, i]));
    expect(await chattyClosed).toBe(CLOSE.TOO_MANY);
  });

  test("bounds connections per user, per page (this process's and the others') and in all", async () => {
    w = await world({ perUser: 2, perDocument: 3, total: 5 });
    grant(w, "a", "alice", "room1");
    grant(w, "b", "bob", "room1");
    grant(w, "c", "carol", "room2");
    grant(w, "d", "dave", "room3");
    const open = [opened(await connect(w, "a")), opened(await connect(w, "a"))];
    expect(await connect(w, "a")).toBe(429);
    open.push(opened(await connect(w, "b")));
    expect(await connect(w, "b")).toBe(429);
    w.remote.peers = 3;
    expect(await connect(w, "c")).toBe(429);
    w.remote.peers = 0;
    open.push(opened(await connect(w, "c")), opened(await connect(w, "d")));
    expect(await connect(w, "d")).toBe(503);
    // A closed connection frees its place.
    const gone = closed(open[0].ws);
    open[0].ws.close();
    await gone;
    await until(() => w.relay.size === 4);
    open.push(opened(await connect(w, "a")));
    for (const x of open.slice(1)) x.ws.close();
  });

  test("a room ends with its last connection, and the others are told who left", async () => {
    w = await world();
    grant(w, "a", "alice", "room1");
    grant(w, "b", "bob", "room1");
    const a = opened(await connect(w, "a"));
    const b = opened(await connect(w, "b"));
    // y-protocols' awareness update of client 300 (clock 1, state "{}"), framed as y-websocket does.
    const update = [1, 300 & 0x7f | 0x80, 300 >> 7, 1, 2, 0x7b, 0x7d];
    a.ws.send(Buffer.from([1, update.length, ...update]));
    await until(() => b.frames.length === 1);
    a.ws.close();
    await until(() => b.texts.length === 1);
    expect(JSON.parse(b.texts[0])).toEqual({ type: "left", clients: [300] });
    expect(w.published.at(-1)).toMatchObject({ room: "room1", text: true });
    expect(w.relay.peers("room1")).toBe(1);
    b.ws.close();
    await until(() => w.relay.peers("room1") === 0);
    expect(w.relay.size).toBe(0);
  });

  test("a slow reader is closed rather than buffered without end", async () => {
    w = await world({ maxBufferedBytes: 0 });
    grant(w, "a", "alice", "room1");
    grant(w, "b", "bob", "room1");
    const a = opened(await connect(w, "a"));
    const b = opened(await connect(w, "b"));
    // Pause b's socket so its frames pile up on the server.
    (b.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const bClosed = new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (w.relay.peers("room1") === 1) {
          clearInterval(check);
          resolve();
        }
      }, 10);
    });
    for (let i = 0; i < 50; i++) a.ws.send(Buffer.alloc(64 * 1024));
    await bClosed;
    a.ws.close();
    b.ws.terminate();
  });
});

describe("the relay's parsing", () => {
  test("paths, subprotocols and awareness frames", () => {
    expect(collabTarget("/app/collab/abc/12/guides/intro")).toEqual({ spaceId: "abc", changeRequest: "12", pagePath: "guides/intro" });
    expect(collabTarget("/app/collab/abc/0/x")).toBeNull();
    expect(collabTarget("/app/collab/a b/1/x")).toBeNull();
    expect(offeredCsrf(`${COLLAB_PROTOCOL}, csrf.${CSRF}`)).toBe(CSRF);
    expect(offeredCsrf(`csrf.${CSRF}`)).toBeUndefined();
    expect(offeredCsrf(`${COLLAB_PROTOCOL}, csrf.short`)).toBeUndefined();
    expect(awarenessClients(Buffer.from([0, 1, 2]))).toEqual([]);
    expect(awarenessClients(Buffer.from([1, 5, 1, 42, 3, 0]))).toEqual([42]);
    expect(awarenessClients(Buffer.from([1, 0xff]))).toEqual([]);
  });

  test("the frame budget refills with time and never past its burst", () => {
    const budget = new FrameBudget({ messagesPerSecond: 2, messageBurst: 3, bytesPerSecond: 100, byteBurst: 100 }, 0);
    expect([budget.take(10, 0), budget.take(10, 0), budget.take(10, 0), budget.take(10, 0)]).toEqual([true, true, true, false]);
    expect(budget.take(10, 500)).toBe(true);
    expect(budget.take(10, 500)).toBe(false);
    expect(budget.take(10, 10_000)).toBe(true);
    expect(budget.take(80, 10_000)).toBe(true);
    expect(budget.take(80, 10_000)).toBe(false);
  });
});
