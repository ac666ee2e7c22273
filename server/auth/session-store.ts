import { createHash } from "node:crypto";
import type { Knex } from "knex";
import type { Clock } from "../clock";
import { type Database, isPglite } from "../db/connection";
import { Session, User } from "../models";
import type { ChangeAnnouncements } from "../db/announced-cache";
import { SessionCache, type SignedIn } from "./session-cache";

/** Only this hash of a session id is stored: a leaked table does not let anyone sign in. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Ids are 43 characters (32 random bytes); anything much longer is not worth hashing. */
const MAX_TOKEN_LENGTH = 100;

/** What koa-session keeps of a session; the rest (the rows) is in ctx.state. */
export interface SessionData {
  userId: string;
}

/** What the store uses of the request's context (ctx.state as the routes read it). */
interface RequestContext {
  state: { session?: Session; user?: User };
  get(field: string): string;
}

/** koa-session passes the request's context to every store call. */
interface StoreContext {
  ctx?: RequestContext;
}

/**
 * koa-session's external store, on the `sessions` table (idHash, userId, createdAt, expiresAt,
 * userAgent), with the signed-in user read in the same query and both cached (session-cache.ts).
 * get() also puts the rows in ctx.state (routes read ctx.state.user and ctx.state.session);
 * set() and destroy() act on that signed-in session: set() slides its expiry, or inserts the
 * one signIn just started under a new id; destroy() deletes it. The websocket authenticates
 * through loadStored(); password changes and re-issued invites use endAllSessions().
 */
export class SessionStore {
  readonly cache: SessionCache;
  private usersColumnList: Promise<string[]> | null = null;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    announcements: ChangeAnnouncements,
  ) {
    this.cache = new SessionCache(db, announcements);
  }

  async get(
    token: string,
    _maxAge: unknown,
    { ctx }: StoreContext,
  ): Promise<SessionData | undefined> {
    const signedIn = await this.load(token);
    if (!signedIn || !ctx) return undefined;
    ctx.state.session = signedIn.session;
    ctx.state.user = signedIn.user;
    return { userId: signedIn.user.id };
  }

  async set(
    token: string,
    data: SessionData,
    maxAge: number,
    { ctx }: StoreContext,
  ): Promise<void> {
    const idHash = hashToken(token);
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + maxAge);
    const current = ctx!.state.session;
    if (current?.idHash === idHash) {
      // An update only: a session ended meanwhile (signed out elsewhere) stays ended.
      await Session.query(this.db).patch({ expiresAt }).where("idHash", idHash);
      current.expiresAt = expiresAt;
      return;
    }
    // Expired sessions are only ever filtered out on read; tidy this user's here.
    await Session.query(this.db)
      .delete()
      .where("userId", data.userId)
      .where("expiresAt", "<=", now);
    const userAgent = ctx!.get("User-Agent").slice(0, 300) || null;
    ctx!.state.session = await Session.query(this.db)
      .insert({ idHash, userId: data.userId, expiresAt, userAgent, createdAt: now })
      .returning("*");
  }

  async destroy(token: string, { ctx }: StoreContext): Promise<void> {
    const current = ctx!.state.session;
    // Only the signed-in session has a row (a new id never saved has none).
    if (current?.idHash !== hashToken(token)) return;
    await Session.query(this.db).deleteById(current.idHash);
    ctx!.state.session = undefined;
  }

  /**
   * The unexpired session named by `token` and its user: from the cache without a promise
   * (this runs on every request), else one query.
   */
  load(token: string): SignedIn | undefined | Promise<SignedIn | undefined> {
    if (token.length > MAX_TOKEN_LENGTH) return undefined;
    const now = this.clock.now();
    return this.cache.get(token, now.getTime()) ?? this.read(token, now);
  }

  /**
   * The session read from the database, never from the cache: a websocket is authenticated
   * once and then lives for hours, so it starts from what is stored (and a database that
   * cannot answer is a 503, not a socket opened on a cached session). Nor is it put in the
   * cache: with thousands of idle sockets open, their sessions and users would sit there.
   */
  loadStored(token: string): Promise<SignedIn | undefined> {
    if (token.length > MAX_TOKEN_LENGTH) return Promise.resolve(undefined);
    return this.read(token, this.clock.now(), false);
  }

  /**
   * On PostgreSQL the users columns as this process first found them, listed: a prepared
   * statement's result keeps its shape when a newer build's migration adds a column to users
   * (with `users.*` every read of the older instances still running would fail, "cached plan
   * must not change result type", during a rolling upgrade). PGlite: `users.*`.
   */
  private userColumns(): Promise<string[]> {
    if (isPglite(this.db)) return Promise.resolve(["users.*"]);
    this.usersColumnList ??= this.db("information_schema.columns")
      .where({ tableSchema: this.db.raw("current_schema()"), tableName: "users" })
      .orderBy("ordinalPosition")
      .select("columnName")
      .then((rows: { columnName: string }[]) => rows.map((row) => `users.${row.columnName}`))
      .catch((error) => {
        this.usersColumnList = null; // asked again on the next read
        throw error;
      });
    return this.usersColumnList;
  }

  private async read(token: string, now: Date, keep = true): Promise<SignedIn | undefined> {
    const mark = this.cache.mark;
    const idHash = hashToken(token);
    const query = this.db("sessions")
      .join("users", "users.id", "sessions.userId")
      .leftJoin("users as workspace", "workspace.id", "users.workspaceId")
      // A contact's client and its workspace's owner: their language until they pick one.
      .leftJoin("clients as contact_client", "contact_client.id", "users.clientId")
      .leftJoin("users as contact_workspace", "contact_workspace.id", "contact_client.ownerId")
      .where("sessions.idHash", idHash)
      .where("sessions.expiresAt", ">", now)
      .first(
        ...(await this.userColumns()),
        "workspace.accountTier as workspaceTier",
        this.db.raw(
          `coalesce(contact_client.language, contact_workspace.workspace_language,
            workspace.workspace_language, users.workspace_language) as "defaultLanguage"`,
        ),
        "sessions.expiresAt as sessionExpiresAt",
        "sessions.createdAt as sessionCreatedAt",
        "sessions.userAgent as sessionUserAgent",
      );
    // The first request of a session, and the first after a change to users or sessions:
    // named, PostgreSQL parses and plans it once per connection.
    if (!isPglite(this.db)) query.options({ name: "read_session" });
    const row = await query;
    if (!row) return undefined;
    const {
      sessionExpiresAt,
      sessionCreatedAt,
      sessionUserAgent,
      workspaceTier,
      defaultLanguage,
      ...userColumns
    } = row;
    const user = User.fromDatabaseJson(userColumns);
    if (workspaceTier) user.workspaceTier = workspaceTier;
    if (defaultLanguage) user.defaultLanguage = defaultLanguage;
    const session = Session.fromJson(
      {
        idHash,
        userId: user.id,
        expiresAt: sessionExpiresAt,
        createdAt: sessionCreatedAt,
        userAgent: sessionUserAgent,
      },
      { skipValidation: true },
    );
    const signedIn = { session, user };
    if (keep) this.cache.keep(token, signedIn, now.getTime(), mark);
    return signedIn;
  }

  /** A user's unexpired sessions, newest first. */
  async sessionsOf(userId: string, db: Knex | Knex.Transaction = this.db): Promise<Session[]> {
    return await Session.query(db)
      .where("userId", userId)
      .where("expiresAt", ">", this.clock.now())
      .orderBy("createdAt", "desc");
  }

  /**
   * Ends every session of a user (password change or reset, a client's re-issued invite);
   * answers their hashes, to close their sockets with realtime.endSession once committed.
   */
  async endAllSessions(userId: string, db: Knex | Knex.Transaction = this.db): Promise<string[]> {
    const ended = await Session.query(db).delete().where("userId", userId).returning("idHash");
    return ended.map((session) => session.idHash);
  }
}
