import { randomUUID } from "node:crypto";
import { type IncomingMessage, STATUS_CODES, type Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer } from "ws";
import Cookies from "cookies";
import { CLOSE_CODES, type ConversationEvent, type RealtimeEvent } from "../../shared/realtime";
import type { Role } from "../../shared/schemas/user";
import { SESSION_COOKIE } from "../../shared/session-cookie";
import type { Services } from "../context";
import {
  authenticateSocket,
  loadMembers,
  type Members,
  type SocketIdentity,
  sessionExpiry,
} from "./access";
import type { MessageViews } from "./events";
import type { HubMessage } from "./hub";
import { MembersCache } from "./members-cache";
import { readRealtimeEvent } from "./wire";
import { isDatabaseUnavailable, UNAVAILABLE_MESSAGE } from "../db/database-unavailable";
import { PRESENCE_REFRESH_MS, type SocketPresence } from "../push/presence";
import { ConversationPresence, type PresenceTimings } from "./conversation-presence";
import { readPresenceFrame } from "./presence-frame";
import { isUuid } from "../validate";
import { msg } from "../../shared/i18n/msg";
import { DEFAULT_LANGUAGE, type Language, negotiateLanguage } from "../../shared/i18n/languages";
import { translateMessage } from "../i18n/translator";
import type { PresenceFrame, PresentPerson } from "../../shared/realtime-presence";

/** Re-exported for the server's own callers; defined once in shared/realtime.ts. */
export { CLOSE_CODES };

export interface SocketServerOptions {
  path: string;
  /** Largest frame a client may send: control frames and presence frames (tiny). */
  maxPayload: number;
  /** Each socket's ping interval; a socket that did not answer the previous ping is dropped. */
  heartbeatMs: number;
  /** How long a conversation's members are cached (see MembersCache). */
  membersTtlMs: number;
  /** Sockets one user may hold on this instance. */
  maxSocketsPerUser: number;
  /** A socket that lets this much unsent data pile up is dropped (it reconnects and catches up). */
  maxBufferedBytes: number;
  /** Who is in which conversation (issue 26): heartbeat, expiry, typing's end. */
  presence: Partial<PresenceTimings>;
}

export const DEFAULT_SOCKET_OPTIONS: SocketServerOptions = {
  path: "/ws",
  maxPayload: 4 * 1024,
  heartbeatMs: 30_000,
  membersTtlMs: 60_000,
  maxSocketsPerUser: 20,
  maxBufferedBytes: 1024 * 1024,
  presence: {},
};

/**
 * Frames a socket may send: a burst of this many, then this many a second. A browser sends
 * one on opening or leaving a conversation and one every 3 s while typing; the rest is ignored.
 */
const FRAME_BURST = 10;
const FRAMES_PER_SECOND = 2;

interface PendingDelivery {
  event: ConversationEvent;
  views: MessageViews | undefined;
  /** The sides that hear of it (an internal note: the owner's only); both when undefined. */
  sides: readonly Role[] | undefined;
  /** undefined while being looked up; null when there is no such conversation. */
  members: Members | null | undefined;
}

interface Connection extends SocketIdentity {
  ws: WebSocket;
  alive: boolean;
  /** Names this socket in presence announcements (every instance keeps it apart). */
  connectionId: string;
  /** Frames it may still send now, and when that was worked out (a token bucket). */
  frameTokens: number;
  framesCountedAt: number;
  /** The frame being handled: the next waits for it, so a socket's frames keep their order. */
  handling: Promise<void>;
  /** This socket's pings (its own timer: sockets opened at different times ping apart). */
  heartbeat?: NodeJS.Timeout;
  /** Fires when the session expires, unless the session was extended meanwhile. */
  expiry?: NodeJS.Timeout;
}

/** setTimeout's longest delay is about 24.8 days; a longer session is looked at again daily. */
const LONGEST_EXPIRY_WAIT_MS = 24 * 60 * 60 * 1000;
/** A session whose expiry could not be read (database away) is looked at again this much later. */
const EXPIRY_RETRY_MS = 60_000;

/**
 * The /ws endpoint: authenticates upgrades by the session cookie and an exact Origin, keeps
 * this instance's sockets by user, and delivers hub events to the two members of the
 * conversation only.
 */
export class RealtimeSocketServer {
  private readonly options: SocketServerOptions;
  private readonly wss: WebSocketServer;
  private readonly byUser = new Map<string, Set<Connection>>();
  /** The same sockets by the session that opened them: an ended session closes its own. */
  private readonly bySession = new Map<string, Set<Connection>>();
  private readonly unsubscribe: () => void;
  private readonly timers = new Set<NodeJS.Timeout>();
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
  /** Which staff are in which conversation, typing or not (issue 26). */
  private readonly conversations: ConversationPresence;

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
    this.conversations = new ConversationPresence({
      announce: (announcement) => services.realtime.announcePresence(announcement),
      changed: (clientId, people) => this.tellPresence(clientId, people),
      now: () => performance.now(),
      onError: (error) =>
        services.logger.warn({ err: error }, "realtime: presence announcement failed"),
      timings: this.options.presence,
    });
    this.unsubscribe = services.realtime.subscribe((message) => this.onHubMessage(message));
    this.presence = services.presence;
    // One row per instance, whatever the number of sockets (server/push/presence.ts).
    this.timers.add(setInterval(() => void this.presence.refresh(), PRESENCE_REFRESH_MS).unref());
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
    for (const timer of this.timers) clearTimeout(timer);
    // The upgrade listener stays: without one, Node would hand an upgrade to the app as a
    // plain request (answered 200 by the web app) instead of refusing it.
    const sockets = this.allConnections(true).map((connection) => connection.ws);
    const closing = sockets.map((ws) =>
      ws.readyState === WebSocket.CLOSED
        ? Promise.resolve()
        : new Promise<void>((resolve) => ws.once("close", () => resolve())),
    );
    // Each socket's conversation is left on the way (the other instances hear of it).
    for (const connection of this.allConnections())
      this.drop(connection, CLOSE_CODES.resync, "Server restarting");
    this.conversations.close();
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

  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Not a closure: one made here would keep this call's scope (the request, its headers,
    // `head`) alive as long as the socket.
    socket.on("error", destroyEmitter);
    if (pathOf(req.url) !== this.options.path) {
      socket.destroy();
      return;
    }
    // Refusals are read by a person (the app shows them): in the language their browser asks for.
    const language = negotiateLanguage(req.headers["accept-language"]) ?? DEFAULT_LANGUAGE;
    if (this.closed) {
      refuse(socket, 503, msg("Shutting down"), language);
      return;
    }
    if (!this.services.config.allowedOrigins.includes(req.headers.origin ?? "")) {
      refuse(socket, 403, msg("Cross-site connection refused"), language);
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
          refuse(socket, auth.status, auth.message, auth.language ?? language);
          return;
        }
        if ((this.byUser.get(auth.identity.userId)?.size ?? 0) >= this.options.maxSocketsPerUser) {
          refuse(socket, 429, msg("Too many connections"), language);
          return;
        }
        // A client user may have just joined its conversation: look its members up afresh.
        if (auth.conversations.length > 0) this.members.forgetConversations(auth.conversations);
        this.wss.handleUpgrade(req, socket, head, (ws) =>
          this.register(ws, auth.identity, auth.expiresAt),
        );
      })
      .catch((error) => {
        // The database being away is expected now and then: a warning, and the API's words.
        const unavailable = isDatabaseUnavailable(error);
        this.services.logger[unavailable ? "warn" : "error"](
          { err: error },
          "realtime: upgrade failed",
        );
        refuse(
          socket,
          503,
          unavailable ? UNAVAILABLE_MESSAGE : msg("Service unavailable"),
          language,
        );
      });
  };

  private authenticate(req: IncomingMessage) {
    // Read as koa-session reads it (Koa's cookie jar); an upgrade has no response to write to.
    const token = new Cookies(req, undefined as never).get(SESSION_COOKIE);
    return authenticateSocket(this.services.sessions, this.services.db, token);
  }

  private register(ws: WebSocket, identity: SocketIdentity, expiresAt: Date) {
    const connection: Connection = {
      ...identity,
      ws,
      alive: true,
      connectionId: randomUUID(),
      frameTokens: FRAME_BURST,
      framesCountedAt: performance.now(),
      handling: Promise.resolve(),
    };
    addTo(this.byUser, identity.userId, connection);
    addTo(this.bySession, identity.sessionHash, connection);
    connection.heartbeat = setInterval(() => this.keepAlive(connection), this.options.heartbeatMs);
    connection.heartbeat.unref();
    this.expireAt(connection, expiresAt.getTime());
    ws.on("pong", () => {
      connection.alive = true;
    });
    // Staff say where they are (presence); anything else is ignored (maxPayload bounds it).
    ws.on("message", (data, isBinary) => {
      if (!isBinary) this.onFrame(connection, data.toString());
    });
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
        this.enqueue(event, message.views, message.sides);
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
        if (message.afterMs) {
          const timer = setTimeout(() => {
            this.timers.delete(timer);
            this.endSession(message.sessionHash);
          }, message.afterMs);
          this.timers.add(timer.unref());
        } else this.endSession(message.sessionHash);
        return;
      case "resync":
        this.members.clear();
        for (const connection of this.allConnections())
          this.drop(connection, CLOSE_CODES.resync, "Reconnect");
        return;
      case "presence":
        this.conversations.receive(message);
        return;
      case "access_changed":
        this.members.forgetConversations([message.clientId]);
        this.recheckPresence(message.clientId);
        this.tell(message.userIds, { type: "client_access_changed", clientId: message.clientId });
        return;
      case "team_changed":
        // Staff only: a client's socket never hears of the agency's team, whatever the list says.
        this.tell(message.userIds, { type: "team_changed" }, "owner");
        return;
      case "rows_changed":
        // A role or a workspace may have changed: who has which conversation is looked up anew.
        if (message.table === "users" || message.table === "clients") this.members.clear();
        return;
    }
  }

  /**
   * Looks up each event's conversation members as it arrives (usually cached; lookups run side
   * by side) but sends in arrival order, so a socket sees events in the order they were
   * published on this channel.
   */
  private enqueue(
    event: ConversationEvent,
    views: MessageViews | undefined,
    sides: readonly Role[] | undefined,
  ): void {
    if (this.byUser.size === 0) return;
    const item: PendingDelivery = { event, views, sides, members: undefined };
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
            if (next.members) this.send(next, next.members);
          } catch (error) {
            this.services.logger.error({ err: error, event: next.event }, "realtime: send failed");
          }
        }
      });
  }

  /**
   * Sends the event to this instance's sockets of the conversation's owner and client, each
   * with its own side's view of a new message (when the event has views); only to `sides` when
   * the event names them (an internal note reaches no socket of the client, not even its ids).
   */
  private send({ event, views, sides }: PendingDelivery, members: Members): void {
    for (const role of sides ?? (["owner", "client"] as const)) {
      const userIds = role === "owner" ? members.staffIds : members.clientUserIds;
      const view = views?.[role];
      let data: string | undefined;
      for (const userId of userIds) {
        for (const connection of [...(this.byUser.get(userId) ?? [])]) {
          if (!this.writable(connection)) continue;
          data ??= JSON.stringify(view ? { ...event, message: view } : event);
          connection.ws.send(data);
        }
      }
    }
  }

  /**
   * A presence frame from a socket: ignored unless it is a staff member's, well formed, within
   * the socket's frame budget and about a client that person has. Never answered with an
   * error: a client id one may not see looks like one that does not exist.
   */
  private onFrame(connection: Connection, text: string): void {
    if (connection.role !== "owner" || !this.isOpen(connection)) return;
    if (!this.takeFrameToken(connection)) return;
    const frame = readPresenceFrame(text);
    if (!frame || !isUuid(frame.clientId)) return;
    connection.handling = connection.handling.then(() => this.handleFrame(connection, frame));
  }

  private async handleFrame(connection: Connection, frame: PresenceFrame): Promise<void> {
    const { clientId, state } = frame;
    const report = () =>
      this.conversations.report({
        clientId,
        connectionId: connection.connectionId,
        userId: connection.userId,
        name: connection.name,
        picture: connection.picture,
        state,
      });
    // Leaving needs no look-up: it only ever removes this socket's own entry.
    if (state === "idle") {
      report();
      return;
    }
    try {
      const members = await this.members.get(clientId);
      if (!members?.staffIds.includes(connection.userId) || !this.isOpen(connection)) return;
      const arriving = this.conversations.conversationOf(connection.connectionId) !== clientId;
      report();
      // Who is there already, at once: the others' list changes only when this person is new.
      if (arriving) this.tellConnection(connection, clientId, this.conversations.people(clientId));
    } catch (error) {
      this.services.logger.warn({ err: error }, "realtime: presence look-up failed");
    }
  }

  private takeFrameToken(connection: Connection): boolean {
    const now = performance.now();
    connection.frameTokens = Math.min(
      FRAME_BURST,
      connection.frameTokens + ((now - connection.framesCountedAt) / 1000) * FRAMES_PER_SECOND,
    );
    connection.framesCountedAt = now;
    if (connection.frameTokens < 1) return false;
    connection.frameTokens -= 1;
    return true;
  }

  /** Tells this instance's staff sockets who is in `clientId`, each without themselves. */
  private tellPresence(clientId: string, people: PresentPerson[]): void {
    if (this.byUser.size === 0) return;
    this.members
      .get(clientId)
      .then((members) => {
        for (const userId of members?.staffIds ?? []) {
          for (const connection of this.byUser.get(userId) ?? []) {
            this.tellConnection(connection, clientId, people);
          }
        }
      })
      .catch((error) => {
        this.services.logger.warn({ err: error }, "realtime: presence delivery failed");
      });
  }

  private tellConnection(connection: Connection, clientId: string, people: PresentPerson[]) {
    if (!this.writable(connection)) return;
    const others = people.filter((person) => person.userId !== connection.userId);
    connection.ws.send(JSON.stringify({ type: "presence", clientId, people: others }));
  }

  /** Who has `clientId` changed: this instance's sockets there that lost it leave it. */
  private recheckPresence(clientId: string): void {
    const inside = this.allConnections().filter(
      (connection) => this.conversations.conversationOf(connection.connectionId) === clientId,
    );
    if (inside.length === 0) return;
    this.members
      .get(clientId)
      .then((members) => {
        for (const connection of inside) {
          if (!members?.staffIds.includes(connection.userId))
            this.conversations.left(connection.connectionId);
        }
      })
      .catch((error) => {
        this.services.logger.warn({ err: error }, "realtime: presence re-check failed");
      });
  }

  /** Sends `event` to these users' sockets on this instance. */
  private tell(userIds: string[], event: RealtimeEvent, role?: Role): void {
    const data = JSON.stringify(event);
    for (const userId of userIds) {
      for (const connection of [...(this.byUser.get(userId) ?? [])]) {
        if (role && connection.role !== role) continue;
        if (this.writable(connection)) connection.ws.send(data);
      }
    }
  }

  /** Open and keeping up; a socket whose buffer overflows is cut. */
  private writable(connection: Connection): boolean {
    if (connection.ws.readyState !== WebSocket.OPEN) return false;
    if (connection.ws.bufferedAmount > this.options.maxBufferedBytes) {
      this.forget(connection);
      connection.ws.terminate();
      return false;
    }
    return true;
  }

  /** Pings the socket; one that did not answer the previous ping is cut. */
  private keepAlive(connection: Connection): void {
    if (!connection.alive) {
      this.forget(connection);
      connection.ws.terminate();
      return;
    }
    connection.alive = false;
    if (connection.ws.readyState === WebSocket.OPEN) connection.ws.ping();
  }

  private endSession(sessionHash: string): void {
    for (const connection of [...(this.bySession.get(sessionHash) ?? [])])
      this.drop(connection, CLOSE_CODES.sessionEnded, "Session ended");
  }

  /**
   * Closes the socket (4401) when its session expires. Browsers in use slide their session's
   * expiry, so at that moment the expiry is read again: later, and the timer is set anew.
   */
  private expireAt(connection: Connection, expiresAt: number): void {
    const wait = Math.min(
      Math.max(expiresAt - this.services.clock.now().getTime(), 0),
      LONGEST_EXPIRY_WAIT_MS,
    );
    connection.expiry = setTimeout(() => void this.checkExpiry(connection), wait);
    connection.expiry.unref();
  }

  private async checkExpiry(connection: Connection): Promise<void> {
    let expiresAt: Date | null;
    try {
      expiresAt = await sessionExpiry(
        this.services.db,
        connection.sessionHash,
        this.services.clock.now(),
      );
    } catch (error) {
      this.services.logger.warn({ err: error }, "realtime: session expiry check failed");
      if (this.isOpen(connection)) {
        connection.expiry = setTimeout(() => void this.checkExpiry(connection), EXPIRY_RETRY_MS);
        connection.expiry.unref();
      }
      return;
    }
    if (!this.isOpen(connection)) return;
    if (expiresAt) this.expireAt(connection, expiresAt.getTime());
    else this.drop(connection, CLOSE_CODES.sessionEnded, "Session ended");
  }

  private isOpen(connection: Connection): boolean {
    return this.byUser.get(connection.userId)?.has(connection) ?? false;
  }

  /** Stops delivering to `connection` at once and closes it. */
  private drop(connection: Connection, code: number, reason: string): void {
    this.forget(connection);
    if (connection.ws.readyState === WebSocket.CLOSED) return;
    this.closingConnections.add(connection);
    connection.ws.close(code, reason);
  }

  private forget(connection: Connection): void {
    this.conversations.left(connection.connectionId);
    clearInterval(connection.heartbeat);
    clearTimeout(connection.expiry);
    removeFrom(this.bySession, connection.sessionHash, connection);
    if (!removeFrom(this.byUser, connection.userId, connection)) return;
    if (!this.byUser.has(connection.userId) && !this.closed)
      void this.presence.disconnected(connection.userId);
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

function addTo(index: Map<string, Set<Connection>>, key: string, connection: Connection): void {
  let set = index.get(key);
  if (!set) {
    set = new Set();
    index.set(key, set);
  }
  set.add(connection);
}

/** Removes `connection` from `index` (and an emptied set); false when it was not there. */
function removeFrom(
  index: Map<string, Set<Connection>>,
  key: string,
  connection: Connection,
): boolean {
  const set = index.get(key);
  if (!set?.delete(connection)) return false;
  if (set.size === 0) index.delete(key);
  return true;
}

function pathOf(url: string | undefined): string {
  const raw = url ?? "/";
  const end = raw.indexOf("?");
  return end === -1 ? raw : raw.slice(0, end);
}

/**
 * Answers a refused upgrade with a status and a JSON {message} (an errors catalog key, written
 * in `language`), then closes the socket.
 */
function refuse(socket: Duplex, status: number, message: string, language: Language): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ message: translateMessage(language, message) });
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

/** An "error" listener that destroys the socket it was emitted by. */
function destroyEmitter(this: Duplex): void {
  this.destroy();
}
