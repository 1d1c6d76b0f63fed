// The block editor's live collaboration relay (services/app/README.md, "Live collaboration"): the gateway,
// the only HTTP listener, takes a WebSocket upgrade at `/app/collab/{space}/{change request number}/{page
// path}`, asks the app (`app.collab`) whether the session may edit that page (the same session cookie, CSRF
// token and access check as the editor's page), and then relays the editors' Yjs messages (sync and
// awareness, y-protocols' binary frames) between every connection to the same page: the other connections of
// this process at once, those of other gateway processes through a Moleculer broadcast (over NATS when scaled
// out). The relay keeps no document: the editors' own Y.Docs are the state, a joining editor syncs from those
// already there. It parses nothing of a frame but its size. Every dimension is bounded (CollabLimits).
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type RawData, type WebSocket } from "ws";

/** `/app/collab/{space id}/{change request number}/{page path}`. */
const COLLAB_PATH = /^\/app\/collab\/([A-Za-z0-9_-]{1,64})\/([1-9][0-9]{0,8})\/([^?#]{1,2048})$/;
/** The subprotocol an editor asks for; the second one it offers carries its CSRF token (`csrf.{token}`). */
export const COLLAB_PROTOCOL = "docshelf-collab";
const CSRF_PROTOCOL = /^csrf\.([A-Za-z0-9_-]{16,128})$/;

/** Close codes the editor reads: it does not reconnect after SESSION_ENDED or REFUSED. */
export const CLOSE = { UNSUPPORTED: 1003, TOO_MANY: 1008, TOO_BIG: 1009, SLOW: 1013, GOING_AWAY: 1001, SESSION_ENDED: 4401, REFUSED: 4403 } as const;

export interface CollabLimits {
  /** The largest frame (a full document's sync included); over NATS also what one message carries. */
  maxMessageBytes: number;
  /** Sustained frames per second of one connection, and the burst it may save up. */
  messagesPerSecond: number;
  messageBurst: number;
  /** Sustained bytes per second of one connection, and its burst (at least maxMessageBytes). */
  bytesPerSecond: number;
  byteBurst: number;
  /** Open connections of one user on this process. */
  perUser: number;
  /** Open connections to one page (this process's and, when a room opens, the other processes' counted). */
  perDocument: number;
  /** Open connections on this process. */
  total: number;
  /** How much may wait unsent to one connection before it is closed as too slow. */
  maxBufferedBytes: number;
  /** How often the session and the right to edit are checked again on an open connection. */
  recheckMs: number;
  /** Pings; a connection that answered none since the last is closed. */
  pingMs: number;
}

export const DEFAULT_COLLAB_LIMITS: CollabLimits = {
  maxMessageBytes: 1024 * 1024,
  messagesPerSecond: 60,
  messageBurst: 240,
  bytesPerSecond: 512 * 1024,
  byteBurst: 2 * 1024 * 1024,
  perUser: 16,
  perDocument: 32,
  total: 2000,
  maxBufferedBytes: 8 * 1024 * 1024,
  recheckMs: 60_000,
  pingMs: 30_000,
};

export interface CollabTarget {
  spaceId: string;
  changeRequest: string;
  pagePath: string;
}

/** The app's answer to `app.collab`: who may edit which page (the room), or why not. */
export type CollabGrant =
  | { status: 200; room: string; userId: string; name: string; color: number }
  | { status: 400 | 401 | 403 | 404 | 409; message: string };

/** What the relay needs of the gateway around it. */
export interface CollabHost {
  authorize(target: CollabTarget, cookie: string | undefined, csrf: string): Promise<CollabGrant>;
  /** How many connections other gateway processes hold to the room (0 in one process). */
  remotePeers(room: string): Promise<number>;
  /** Sends a frame (`text`: a control message) to the other gateway processes (nothing in one process). */
  publish(room: string, frame: Buffer, text?: boolean): void;
  /** The frame size a transporter message allows now (undefined: no transporter). */
  transporterFrameLimit(): number | undefined;
  warn(fields: Record<string, unknown>, message: string): void;
}

/** A token bucket of frames and bytes. */
export class FrameBudget {
  private frames: number;
  private bytes: number;
  private at: number;

  constructor(
    private readonly limits: Pick<CollabLimits, "messagesPerSecond" | "messageBurst" | "bytesPerSecond" | "byteBurst">,
    now = Date.now(),
  ) {
    this.frames = limits.messageBurst;
    this.bytes = limits.byteBurst;
    this.at = now;
  }

  /** Takes one frame of `size` bytes; false when over the budget. */
  take(size: number, now = Date.now()): boolean {
    const elapsed = Math.max(0, now - this.at) / 1000;
    this.at = now;
    this.frames = Math.min(this.limits.messageBurst, this.frames + elapsed * this.limits.messagesPerSecond);
    this.bytes = Math.min(this.limits.byteBurst, this.bytes + elapsed * this.limits.bytesPerSecond);
    if (this.frames < 1 || this.bytes < size) return false;
    this.frames -= 1;
    this.bytes -= size;
    return true;
  }
}

interface Connection {
  ws: WebSocket;
  room: string;
  userId: string;
  budget: FrameBudget;
  alive: boolean;
  timers: NodeJS.Timeout[];
  /** The Yjs client ids this connection's awareness frames announced (at most MAX_CLIENTS). */
  clients: Set<number>;
}

/** How many awareness client ids one connection is remembered to have announced (an editor has one). */
const MAX_CLIENTS = 4;

/** lib0's variable-length unsigned integer at `pos`: its value and the next position; value -1 when malformed. */
function readVarUint(buf: Buffer, pos: number): [number, number] {
  let value = 0;
  let mult = 1;
  while (pos < buf.length && mult < 2 ** 49) {
    const byte = buf[pos++];
    value += (byte & 0x7f) * mult;
    if (byte < 0x80) return [value, pos];
    mult *= 128;
  }
  return [-1, pos];
}

/**
 * The client ids an awareness frame (y-websocket's framing: type 1, then y-protocols' awareness update:
 * a count, then each client's id, clock and JSON state) speaks for; none for any other frame. When the
 * connection closes, the room is told these left, so their cursors go and another editor takes the saving
 * over at once rather than after awareness's 30 s timeout.
 */
export function awarenessClients(frame: Buffer): number[] {
  const [type, afterType] = readVarUint(frame, 0);
  if (type !== 1) return [];
  const [length, afterLength] = readVarUint(frame, afterType);
  if (length < 0) return [];
  const [count, afterCount] = readVarUint(frame, afterLength);
  let pos = afterCount;
  const ids: number[] = [];
  for (let i = 0; i < Math.min(count, MAX_CLIENTS); i++) {
    let id: number;
    let clock: number;
    let size: number;
    [id, pos] = readVarUint(frame, pos);
    [clock, pos] = readVarUint(frame, pos);
    [size, pos] = readVarUint(frame, pos);
    if (id < 0 || clock < 0 || size < 0) break;
    pos += size;
    ids.push(id);
  }
  return ids;
}

/** Parses a collaboration path; null when it is not one. */
export function collabTarget(url: string | undefined): CollabTarget | null {
  const raw = url ?? "";
  const at = raw.indexOf("?");
  const match = COLLAB_PATH.exec(at < 0 ? raw : raw.slice(0, at));
  if (!match) return null;
  return { spaceId: match[1], changeRequest: match[2], pagePath: match[3] };
}

export function isCollabPath(url: string | undefined): boolean {
  return (url ?? "").startsWith("/app/collab/");
}

/** The CSRF token an editor offers as its second subprotocol; undefined without COLLAB_PROTOCOL. */
export function offeredCsrf(header: string | string[] | undefined): string | undefined {
  const offered = (Array.isArray(header) ? header.join(",") : (header ?? "")).split(",").map((p) => p.trim());
  if (!offered.includes(COLLAB_PROTOCOL)) return undefined;
  for (const p of offered) {
    const match = CSRF_PROTOCOL.exec(p);
    if (match) return match[1];
  }
  return undefined;
}

const REASONS: Record<number, string> = { 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 409: "Conflict", 429: "Too Many Requests", 503: "Service Unavailable" };

/** Answers an upgrade with a plain HTTP refusal and closes the socket. */
export function refuseUpgrade(socket: Duplex, status: number, message: string, headers: Record<string, string> = {}): void {
  if (socket.destroyed) return;
  const body = `${message}\n`;
  const lines = [
    `HTTP/1.1 ${status} ${REASONS[status] ?? "Error"}`,
    "Connection: close",
    "Content-Type: text/plain; charset=utf-8",
    "Cache-Control: no-store",
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${lines.join("\r\n")}\r\n\r\n${body}`);
}

export class CollabRelay {
  private readonly wss: WebSocketServer;
  private readonly rooms = new Map<string, Set<Connection>>();
  private readonly users = new Map<string, number>();
  /** Upgrades admitted but not yet open, counted against the limits so a burst cannot pass them. */
  private pending = 0;

  constructor(
    private readonly host: CollabHost,
    readonly limits: CollabLimits = DEFAULT_COLLAB_LIMITS,
  ) {
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: limits.maxMessageBytes,
      perMessageDeflate: false,
      clientTracking: false,
      handleProtocols: (protocols) => (protocols.has(COLLAB_PROTOCOL) ? COLLAB_PROTOCOL : false),
    });
  }

  /** Open connections to a room on this process. */
  peers(room: string): number {
    return this.rooms.get(room)?.size ?? 0;
  }

  /** Open connections on this process. */
  get size(): number {
    let n = 0;
    for (const room of this.rooms.values()) n += room.size;
    return n;
  }

  /** The largest frame now: the configured one, or less when one transporter message carries less. */
  frameLimit(): number {
    const transporter = this.host.transporterFrameLimit();
    return transporter === undefined ? this.limits.maxMessageBytes : Math.min(this.limits.maxMessageBytes, transporter);
  }

  /**
   * Takes an upgrade request whose path is a collaboration path (the caller checked the host, the origin and
   * the rate limit): authorizes it, checks the limits, then opens the WebSocket or answers the refusal.
   */
  async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const target = collabTarget(req.url);
    if (!target) return refuseUpgrade(socket, 404, "Not found.");
    const csrf = offeredCsrf(req.headers["sec-websocket-protocol"]);
    if (!csrf) return refuseUpgrade(socket, 403, `Ask for the '${COLLAB_PROTOCOL}' subprotocol with the page's CSRF token.`);
    if (this.size + this.pending >= this.limits.total) return refuseUpgrade(socket, 503, "Too many live editing connections on this server; try again later.", { "Retry-After": "30" });
    const cookie = typeof req.headers.cookie === "string" ? req.headers.cookie.slice(0, 16384) : undefined;
    this.pending++;
    let grant: CollabGrant;
    let remote = 0;
    try {
      grant = await this.host.authorize(target, cookie, csrf);
      if (grant.status === 200 && this.peers(grant.room) === 0) remote = await this.host.remotePeers(grant.room);
    } catch (err) {
      this.pending--;
      this.host.warn({ err: { message: (err as Error)?.message } }, "could not authorize a live editing connection");
      return refuseUpgrade(socket, 503, "Live editing cannot start right now; try again in a moment.", { "Retry-After": "5" });
    }
    this.pending--;
    if (grant.status !== 200) return refuseUpgrade(socket, grant.status, grant.message);
    const { room, userId } = grant;
    if ((this.users.get(userId) ?? 0) >= this.limits.perUser) return refuseUpgrade(socket, 429, `At most ${this.limits.perUser} live editing connections per person.`, { "Retry-After": "30" });
    const local = this.peers(room);
    if (local + remote >= this.limits.perDocument) return refuseUpgrade(socket, 429, `At most ${this.limits.perDocument} people edit one page at once.`, { "Retry-After": "30" });
    if (socket.destroyed) return;
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      this.attach(ws, grant as Extract<CollabGrant, { status: 200 }>, local + remote, () => this.host.authorize(target, cookie, csrf));
    });
  }

  private attach(ws: WebSocket, grant: Extract<CollabGrant, { status: 200 }>, peers: number, recheck: () => Promise<CollabGrant>): void {
    const conn: Connection = { ws, room: grant.room, userId: grant.userId, budget: new FrameBudget(this.limits), alive: true, timers: [], clients: new Set() };
    let room = this.rooms.get(grant.room);
    if (!room) this.rooms.set(grant.room, (room = new Set()));
    room.add(conn);
    this.users.set(grant.userId, (this.users.get(grant.userId) ?? 0) + 1);
    const limit = this.frameLimit();
    ws.send(JSON.stringify({ type: "hello", peers, user: { name: grant.name, color: grant.color }, maxMessageBytes: limit }));

    ws.on("message", (data: RawData, isBinary: boolean) => {
      const frame = toBuffer(data);
      if (!isBinary) return ws.close(CLOSE.UNSUPPORTED, "Only binary frames.");
      if (frame.length > this.frameLimit()) return ws.close(CLOSE.TOO_BIG, "Frame too large.");
      if (!conn.budget.take(frame.length)) return ws.close(CLOSE.TOO_MANY, "Too many messages.");
      if (frame[0] === 1 && conn.clients.size < MAX_CLIENTS) for (const id of awarenessClients(frame)) if (conn.clients.size < MAX_CLIENTS) conn.clients.add(id);
      this.deliver(conn.room, frame, conn);
      this.host.publish(conn.room, frame);
    });
    ws.on("pong", () => (conn.alive = true));
    ws.on("error", () => undefined);
    ws.on("close", () => this.detach(conn));
    conn.timers.push(
      setInterval(() => {
        if (!conn.alive) return ws.terminate();
        conn.alive = false;
        ws.ping();
      }, this.limits.pingMs),
      setInterval(() => {
        recheck().then(
          (again) => {
            if (again.status === 401) ws.close(CLOSE.SESSION_ENDED, "The session ended.");
            else if (again.status !== 200) ws.close(CLOSE.REFUSED, "No longer allowed to edit this page.");
          },
          () => undefined,
        );
      }, this.limits.recheckMs),
    );
    for (const timer of conn.timers) timer.unref();
  }

  private detach(conn: Connection): void {
    for (const timer of conn.timers) clearInterval(timer);
    const room = this.rooms.get(conn.room);
    if (room?.delete(conn)) {
      if (room.size === 0) this.rooms.delete(conn.room);
      if (conn.clients.size) {
        const left = Buffer.from(JSON.stringify({ type: "left", clients: [...conn.clients] }));
        this.deliver(conn.room, left, undefined, true);
        this.host.publish(conn.room, left, true);
      }
      const left = (this.users.get(conn.userId) ?? 1) - 1;
      if (left > 0) this.users.set(conn.userId, left);
      else this.users.delete(conn.userId);
    }
  }

  /** Sends a frame to every connection of the room on this process but `from`; a receiver too far behind is closed. */
  deliver(roomKey: string, frame: Buffer, from?: Connection, text = false): void {
    const room = this.rooms.get(roomKey);
    if (!room) return;
    for (const conn of room) {
      if (conn === from) continue;
      if (conn.ws.bufferedAmount > this.limits.maxBufferedBytes) {
        conn.ws.close(CLOSE.SLOW, "Too far behind.");
        continue;
      }
      conn.ws.send(frame, { binary: !text });
    }
  }

  /**
   * A change request's content moved to `revision` (change-requests' `change-requests.content.changed`, which every
   * gateway hears): every connection of this process to one of its pages (rooms `{space}/{change request}/{page}`)
   * gets a text control frame `{"type":"changed","revision":…}`, and the editor that saves asks for the page at once
   * (an edit through the API reaches the open editors without a poll). How many: the rooms held here.
   */
  contentChanged(spaceId: string, changeRequestId: string, revision: string): number {
    const prefix = `${spaceId}/${changeRequestId}/`;
    let told = 0;
    let frame: Buffer | undefined;
    for (const [key, room] of this.rooms) {
      if (!key.startsWith(prefix)) continue;
      frame ??= Buffer.from(JSON.stringify({ type: "changed", revision }));
      this.deliver(key, frame, undefined, true);
      told += room.size;
    }
    return told;
  }

  /** Closes every connection (the gateway is stopping): the editors reconnect to another process. */
  close(): void {
    for (const room of this.rooms.values()) for (const conn of room) conn.ws.close(CLOSE.GOING_AWAY, "Server stopping.");
    this.wss.close();
  }
}

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}
