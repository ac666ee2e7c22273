import { createHash, randomBytes } from "node:crypto";
import type { Knex } from "knex";
import type { AppContext } from "../context";
import { Session, User } from "../models";

export const SESSION_COOKIE = "sid";
const SESSION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function cookieOptions(ctx: AppContext, expires?: Date) {
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    secure: ctx.services.config.secureCookies,
    overwrite: true,
    signed: false,
    path: "/",
    expires,
  };
}

const renewalDue = (expiresAt: Date, now: Date) =>
  now.getTime() >= expiresAt.getTime() - (SESSION_DAYS - 1) * DAY_MS;

/** The session cookie's value in a Cookie header (the first, as browsers send the most specific first). */
export function sessionTokenFrom(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index !== -1 && part.slice(0, index).trim() === SESSION_COOKIE) return part.slice(index + 1).trim();
  }
  return undefined;
}

/**
 * Loads the session named by the cookie, sliding its expiry forward once a day. A session
 * seen in the last two seconds comes from the cache without a promise: this runs on every
 * request. The cache is keyed by the cookie's value, so a hit also skips hashing it.
 */
export function loadSession(ctx: AppContext): Promise<void> | undefined {
  const token = sessionTokenFrom(ctx.headers.cookie);
  if (!token || token.length > 100) return;
  const now = ctx.services.clock.now();
  const cached = ctx.services.sessionCache.get(token, now.getTime());
  if (cached && !renewalDue(cached.session.expiresAt, now)) {
    ctx.state.session = cached.session;
    ctx.state.user = cached.user;
    return;
  }
  return loadStoredSession(ctx, token, now);
}

async function loadStoredSession(ctx: AppContext, token: string, now: Date): Promise<void> {
  const idHash = hashToken(token);
  // One round trip for the session and its user.
  const row = await ctx.services.db("sessions")
    .join("users", "users.id", "sessions.userId")
    .where("sessions.idHash", idHash)
    .where("sessions.expiresAt", ">", now)
    .first("users.*", "sessions.expiresAt as sessionExpiresAt", "sessions.createdAt as sessionCreatedAt", "sessions.idHash");
  if (!row) return;
  const { sessionExpiresAt, sessionCreatedAt, idHash: _rowIdHash, ...userColumns } = row;
  const user = User.fromDatabaseJson(userColumns);
  const session = Session.fromJson(
    { idHash, userId: user.id, expiresAt: sessionExpiresAt, createdAt: sessionCreatedAt, userAgent: null },
    { skipValidation: true },
  );
  if (renewalDue(session.expiresAt, now)) {
    const expiresAt = new Date(now.getTime() + SESSION_DAYS * DAY_MS);
    await Session.query().patch({ expiresAt }).where("idHash", session.idHash);
    session.expiresAt = expiresAt;
    ctx.cookies.set(SESSION_COOKIE, token, cookieOptions(ctx, expiresAt));
  }
  ctx.services.sessionCache.set(token, user, session, now.getTime());
  ctx.state.session = session;
  ctx.state.user = user;
}

/**
 * Starts a fresh session for `user`, ending the one this browser had (no session fixation).
 */
export async function signIn(ctx: AppContext, user: User, trx?: Knex.Transaction): Promise<void> {
  if (ctx.state.session) await Session.query(trx).deleteById(ctx.state.session.idHash);
  // Expired sessions are only ever filtered out on read; tidy this user's here.
  await Session.query(trx).delete().where("userId", user.id).where("expiresAt", "<=", ctx.services.clock.now());
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(ctx.services.clock.now().getTime() + SESSION_DAYS * DAY_MS);
  const session = await Session.query(trx).insertAndFetch({
    idHash: hashToken(token),
    userId: user.id,
    expiresAt,
    userAgent: ctx.get("User-Agent").slice(0, 300) || null,
  });
  ctx.cookies.set(SESSION_COOKIE, token, cookieOptions(ctx, expiresAt));
  ctx.state.session = session;
  ctx.state.user = user;
}

export async function signOut(ctx: AppContext): Promise<void> {
  const ended = ctx.state.session?.idHash;
  if (ended) await Session.query().deleteById(ended);
  ctx.cookies.set(SESSION_COOKIE, null, cookieOptions(ctx));
  ctx.state.session = undefined;
  ctx.state.user = undefined;
  if (!ended) return;
  // Its open sockets (other tabs) close now rather than at the next periodic check.
  try {
    await ctx.services.realtime.endSession(ended);
  } catch (error) {
    ctx.services.logger.warn({ err: error }, "could not close the signed-out session's sockets");
  }
}

/** Ends every session of a user, e.g. after a password change or reset. */
export async function endAllSessions(userId: string, trx?: Knex.Transaction): Promise<void> {
  await Session.query(trx).delete().where("userId", userId);
}
