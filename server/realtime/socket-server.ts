import { type IncomingMessage, STATUS_CODES, type Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer } from "ws";
import Cookies from "cookies";
import { CLOSE_CODES, type RealtimeEvent } from "../../shared/realtime";
import { SESSION_COOKIE } from "../../shared/session-cookie";
import type { Services } from "../context";
import {
  authenticateSocket,
  loadMembers,
  type Members,
  type SocketIdentity,
  stillAllowed,
} from "./access";
import type { HubMessage } from "./hub";
import { MembersCache } from "./members-cache";
import { readRealtimeEvent } from "./wire";
import { isDatabaseUnavailable, UNAVAILABLE_MESSAGE } from "../db/database-unavailable";
import { PRESENCE_REFRESH_MS, SocketPresence } from "../push/presence";

/** Re-exported for the server's own callers; defined once in shared/realtime.ts. */
export { CLOSE_CODES };

export interface SocketServerOptions {
  path: string;
  /** Largest frame a client may send; clients send nothing but control frames. */
  maxPayload: number;
  /** Ping interval; a socket that did not answer the previous ping is dropped. */
  heartbeatMs: number;
  /**
   * How often every socket's session is checked again: a signed-out user's socket closes
   * within this time (a deleted client's at once, by its disconnect message).
   */
  sessionCheckMs: number;
  /** How long a conversation's members are cached (see MembersCache). */
  membersTtlMs: number;
  /** Sockets one user may hold on this instance. */
  maxSocketsPerUser: number;
  /** A socket that lets this much unsent data pile up is dropped (it reconnects and catches up). */
  maxBufferedBytes: number;
}

export const DEFAULT_SOCKET_OPTIONS: SocketServerOptions = {
  path: "/ws",
  maxPayload: 4 * 1024,
  heartbeatMs: 30_000,
  sessionCheckMs: 15_000,
  membersTtlMs: 60_000,
  maxSocketsPerUser: 20,
  maxBufferedBytes: 1024 * 1024,
};

interface PendingDelivery {
  event: RealtimeEvent;
  /** undefined while being looked up; null when there is no such conversation. */
  members: Members | null | undefined;
}

interface Connection extends SocketIdentity {
  ws: WebSocket;
  alive: boolean;
}

/**
 * The /ws endpoint: authenticates upgrades by the session cookie and an exact Origin, keeps
 * this instance's sockets by user, and delivers hub events to the two members of the
 * conversation only.
 */
export class RealtimeSocketServer {
  private readonly options: SocketServerOptions;
  private readonly wss: WebSocketServer;
  private readonly byUser = new Map<string, Set<Connection>>();
  private readonly unsubscribe: () => void;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly servers = new Set<Server>();
  /** Sockets closed by us whose closing handshake is still under way. */
  private readonly closingConnections = new Set<Connection>();
  private closed = false;
  /** Events whose members are being looked up, oldest first. */
  private readonly deliveries: PendingDelivery[] = [];
  private readonly members: MembersCache;
  private readonly stopCounting: () => void;
  /** Who has a socket here, for the other instances too (a push goes only to the absent). */
  private readonly presence: SocketPresence;

  constructor(
    private readonly services: Services,
    options: Partial<SocketServerOptions> = {},
  ) {
    this.options = { ...DEFAULT_SOCKET_OPTIONS, ...options };
    this.members = new MembersCache((clientId) => loadMembers(services.db, clientId), {
      ttlMs: this.options.membersTtlMs,
      maxEntries: 50_000,
    });
    this.wss = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      maxPayload: this.options.maxPayload,
      perMessageDeflate: false,
      maxFragments: 4,
      maxBufferedChunks: 64,
      closeTimeout: 5_000,
    } as ConstructorParameters<typeof WebSocketServer>[0]);
    this.unsubscribe = services.realtime.subscribe((message) => this.onHubMessage(message));
    this.timers.push(setInterval(() => this.heartbeat(), this.options.heartbeatMs));
    this.timers.push(setInterval(() => void this.checkSessions(), this.options.sessionCheckMs));
    this.presence = new SocketPresence(services);
    this.timers.push(
      setInterval(() => void this.presence.refresh([...this.byUser.keys()]), PRESENCE_REFRESH_MS),
    );
    for (const timer of this.timers) timer.unref();
    this.stopCounting = services.metrics.countSockets(() => this.connectionCount);
  }

  /** Handles upgrades to the socket path on `server`; other upgrade requests are refused. */
  attach(server: Server): this {
    this.servers.add(server);
    server.on("upgrade", this.onUpgrade);
    return this;
  }

  /** Open sockets on this instance. */
  get connectionCount(): number {
    let count = 0;
    for (const set of this.byUser.values()) count += set.size;
    return count;
  }

  /**
   * Closes every socket with 1012 (the browser reconnects at once, through the balancer to
   * another instance, and catches up) and refuses new ones (503).
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    this.stopCounting();
    for (const timer of this.timers) clearInterval(timer);
    // The upgrade listener stays: without one, Node would hand an upgrade to the app as a
    // plain request (answered 200 by the web app) instead of refusing it.
    const sockets = this.allConnections(true).map((connection) => connection.ws);
    const closing = sockets.map((ws) =>
      ws.readyState === WebSocket.CLOSED
        ? Promise.resolve()
        : new Promise<void>((resolve) => ws.once("close", () => resolve())),
    );
    for (const connection of this.allConnections())
      this.drop(connection, CLOSE_CODES.resync, "Server restarting");
    // A peer that does not finish the closing handshake is cut after a short wait.
    const cut = setTimeout(() => {
      for (const ws of sockets) ws.terminate();
    }, 2_000);
    await Promise.all(closing);
    clearTimeout(cut);
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    await this.presence.close().catch((error) => {
      this.services.logger.warn(
        { err: error },
        "socket presence: could not remove this instance's rows",
      );
    });
  }

  /**
   * Checks the session of every socket now (also runs every `sessionCheckMs`): a socket whose
   * session ended, or whose client user lost its conversation, is closed with 4401.
   */
  async checkSessions(): Promise<void> {
    const connections = this.allConnections();
    if (connections.length === 0) return;
    try {
      const hashes = [...new Set(connections.map((connection) => connection.sessionHash))];
      const allowed = await stillAllowed(this.services.db, hashes, this.services.clock.now());
      for (const connection of connections) {
        if (!allowed.has(connection.sessionHash))
          this.drop(connection, CLOSE_CODES.sessionEnded, "Session ended");
      }
    } catch (error) {
      this.services.logger.error({ err: error }, "realtime: session check failed");
    }
  }

  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    if (pathOf(req.url) !== this.options.path) {
      socket.destroy();
      return;
    }
    if (this.closed) {
      refuse(socket, 503, "Shutting down");
      return;
    }
    if (!this.services.config.allowedOrigins.includes(req.headers.origin ?? "")) {
      refuse(socket, 403, "Cross-site connection refused");
      return;
    }
    this.authenticate(req)
      .then(async (auth) => {
        // Present before the socket opens: a message sent once it is open is not pushed.
        const first = auth.ok && !this.byUser.has(auth.identity.userId);
        if (first) await this.presence.connected(auth.identity.userId);
        if (socket.destroyed || this.closed) {
          if (first && !this.byUser.has(auth.identity.userId))
            void this.presence.disconnected(auth.identity.userId);
          socket.destroy();
          return;
        }
        if (!auth.ok) {
          refuse(socket, auth.status, auth.message);
          return;
        }
        if ((this.byUser.get(auth.identity.userId)?.size ?? 0) >= this.options.maxSocketsPerUser) {
          refuse(socket, 429, "Too many connections");
          return;
        }
        // A client user may have just joined its conversation: look its members up afresh.
        if (auth.conversations.length > 0) this.members.forgetConversations(auth.conversations);
        this.wss.handleUpgrade(req, socket, head, (ws) => this.register(ws, auth.identity));
      })
      .catch((error) => {
        // The database being away is expected now and then: a warning, and the API's words.
        const unavailable = isDatabaseUnavailable(error);
        this.services.logger[unavailable ? "warn" : "error"](
          { err: error },
          "realtime: upgrade failed",
        );
        refuse(socket, 503, unavailable ? UNAVAILABLE_MESSAGE : "Service unavailable");
      });
  };

  private authenticate(req: IncomingMessage) {
    // Read as koa-session reads it (Koa's cookie jar); an upgrade has no response to write to.
    const token = new Cookies(req, undefined as never).get(SESSION_COOKIE);
    return authenticateSocket(this.services.sessions, this.services.db, token);
  }

  private register(ws: WebSocket, identity: SocketIdentity) {
    const connection: Connection = { ...identity, ws, alive: true };
    let set = this.byUser.get(identity.userId);
    if (!set) {
      set = new Set();
      this.byUser.set(identity.userId, set);
    }
    set.add(connection);
    ws.on("pong", () => {
      connection.alive = true;
    });
    // Clients have nothing to say; what they send is ignored (maxPayload bounds its size).
    ws.on("message", () => undefined);
    ws.on("error", (error) => {
      this.services.logger.debug({ err: error, userId: identity.userId }, "realtime: socket error");
    });
    ws.on("close", () => {
      this.forget(connection);
      this.closingConnections.delete(connection);
    });
    this.services.logger.debug(
      { userId: identity.userId, role: identity.role },
      "realtime: socket open",
    );
  }

  private onHubMessage(message: HubMessage): void {
    switch (message.kind) {
      case "event": {
        const event = readRealtimeEvent(message.event);
        if (!event) {
          this.services.logger.warn({ event: message.event }, "realtime: malformed event dropped");
          return;
        }
        this.enqueue(event);
        return;
      }
      case "disconnect":
        this.members.forgetUsers(message.userIds);
        for (const userId of message.userIds) {
          for (const connection of [...(this.byUser.get(userId) ?? [])]) {
            this.drop(connection, CLOSE_CODES.accessRevoked, "Access removed");
          }
        }
        return;
      case "session_ended":
        for (const connection of this.allConnections()) {
          if (connection.sessionHash === message.sessionHash)
            this.drop(connection, CLOSE_CODES.sessionEnded, "Session ended");
        }
        return;
      case "resync":
        this.members.clear();
        for (const connection of this.allConnections())
          this.drop(connection, CLOSE_CODES.resync, "Reconnect");
        return;
    }
  }

  /**
   * Looks up each event's conversation members as it arrives (usually cached; lookups run side
   * by side) but sends in arrival order, so a socket sees events in the order they were
   * published on this channel.
   */
  private enqueue(event: RealtimeEvent): void {
    if (this.byUser.size === 0) return;
    const item: PendingDelivery = { event, members: undefined };
    this.deliveries.push(item);
    this.members
      .get(event.clientId)
      .catch((error) => {
        this.services.logger.error({ err: error, event }, "realtime: delivery failed");
        return null;
      })
      .then((members) => {
        item.members = members;
        while (this.deliveries[0] && this.deliveries[0].members !== undefined) {
          const next = this.deliveries.shift()!;
          try {
            if (next.members) this.send(next.event, next.members);
          } catch (error) {
            this.services.logger.error({ err: error, event: next.event }, "realtime: send failed");
          }
        }
      });
  }

  /** Sends the event to this instance's sockets of the conversation's owner and client. */
  private send(event: RealtimeEvent, members: Members): void {
    let data: string | undefined;
    for (const userId of [members.ownerId, members.clientUserId]) {
      if (!userId) continue;
      for (const connection of [...(this.byUser.get(userId) ?? [])]) {
        if (connection.ws.readyState !== WebSocket.OPEN) continue;
        if (connection.ws.bufferedAmount > this.options.maxBufferedBytes) {
          this.forget(connection);
          connection.ws.terminate();
          continue;
        }
        data ??= JSON.stringify(event);
        connection.ws.send(data);
      }
    }
  }

  /**
   * Pings every socket; one that did not answer the previous ping is cut. Done in slices so
   * that thousands of sockets do not hold up requests in one long turn of the event loop.
   */
  private heartbeat(): void {
    const connections = this.allConnections();
    const SLICE = 100;
    const beat = (from: number) => {
      for (const connection of connections.slice(from, from + SLICE)) {
        if (!this.byUser.get(connection.userId)?.has(connection)) continue;
        if (!connection.alive) {
          this.forget(connection);
          connection.ws.terminate();
          continue;
        }
        connection.alive = false;
        if (connection.ws.readyState === WebSocket.OPEN) connection.ws.ping();
      }
      if (from + SLICE < connections.length && !this.closed) setImmediate(beat, from + SLICE);
    };
    beat(0);
  }

  /** Stops delivering to `connection` at once and closes it. */
  private drop(connection: Connection, code: number, reason: string): void {
    this.forget(connection);
    if (connection.ws.readyState === WebSocket.CLOSED) return;
    this.closingConnections.add(connection);
    connection.ws.close(code, reason);
  }

  private forget(connection: Connection): void {
    const set = this.byUser.get(connection.userId);
    if (!set) return;
    set.delete(connection);
    if (set.size > 0) return;
    this.byUser.delete(connection.userId);
    if (!this.closed) void this.presence.disconnected(connection.userId);
  }

  private allConnections(includeClosing = false): Connection[] {
    const all: Connection[] = [];
    for (const set of this.byUser.values()) all.push(...set);
    if (includeClosing) all.push(...this.closingConnections);
    return all;
  }
}

/** Attaches the /ws endpoint to `server`. */
export function attachRealtimeSockets(
  server: Server,
  services: Services,
  options: Partial<SocketServerOptions> = {},
): RealtimeSocketServer {
  return new RealtimeSocketServer(services, options).attach(server);
}

function pathOf(url: string | undefined): string {
  const raw = url ?? "/";
  const end = raw.indexOf("?");
  return end === -1 ? raw : raw.slice(0, end);
}

/** Answers a refused upgrade with a status and a JSON {message}, then closes the socket. */
function refuse(socket: Duplex, status: number, message: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ message });
  socket.once("finish", () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\n` +
      "Connection: close\r\n" +
      "Content-Type: application/json\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      "\r\n" +
      body,
  );
  setTimeout(() => socket.destroy(), 1_000).unref();
}
