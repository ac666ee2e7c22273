import { randomBytes } from "node:crypto";
import type Koa from "koa";
import type { Next } from "koa";
import createSession from "koa-session";
import { SESSION_COOKIE } from "../../shared/session-cookie";
import type { AppContext, Services } from "../context";
import { recordAudit } from "../audit/record-audit";
import { User } from "../models";

export { hashToken } from "./session-store";

const SESSION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Due when the expiry was last moved more than a day ago: at most one write a day per session. */
const renewalDue = (expiresAt: Date, now: Date) =>
  now.getTime() >= expiresAt.getTime() - (SESSION_DAYS - 1) * DAY_MS;

/**
 * koa-session on the PostgreSQL store (services.sessions), and after it the daily slide of a
 * signed-in session's expiry. Unsigned cookie: the id is 32 random bytes, unguessable, and only
 * its hash is stored (docs/decisions.md, "Sessions through koa-session").
 */
export function sessions(app: Koa<Koa.DefaultState, { services: Services }>, services: Services) {
  const session = createSession(
    {
      key: SESSION_COOKIE,
      store: services.sessions,
      genid: () => randomBytes(32).toString("base64url"),
      maxAge: SESSION_DAYS * DAY_MS,
      httpOnly: true,
      sameSite: "lax",
      secure: services.config.secureCookies,
      signed: false,
      // Committed where the app changes a session (signIn, signOut, the daily slide): no
      // per-request check of whether the session changed.
      autoCommit: false,
    },
    app,
  );
  return (ctx: AppContext, next: Next) => session(ctx, () => slideExpiry(ctx, next));
}

/** Moves a signed-in session's expiry (row and cookie) 30 days ahead, once a day. */
function slideExpiry(ctx: AppContext, next: Next): Promise<void> {
  const current = ctx.state.session;
  if (current && ctx.session && renewalDue(current.expiresAt, ctx.services.clock.now()))
    return ctx.session.save().then(next);
  return next();
}

/** How someone signed in, for the audit log; absent for a session started anew (e.g. a password change). */
export type SignInMethod = "password" | "google" | "desktop";

/**
 * Starts a fresh session for `user` under a new id, ending the one this browser had (no
 * session fixation): koa-session's regenerate. A sign-in by `method` of the owner's side goes
 * in the workspace's audit log once the session exists.
 */
export async function signIn(ctx: AppContext, user: User, method?: SignInMethod): Promise<void> {
  const session = ctx.session!;
  session.userId = user.id;
  await session.regenerate();
  // Staff work under their workspace's plan, which the session's read joins in (session-store.ts).
  if (user.workspaceId && user.workspaceId !== user.id && user.workspaceTier === undefined) {
    const owner = await User.query(ctx.services.db)
      .findById(user.workspaceId)
      .select("accountTier");
    user.workspaceTier = owner?.accountTier;
  } else if (user.workspaceId) user.workspaceTier = user.accountTier;
  ctx.state.user = user;
  if (method && user.workspaceId)
    await recordAudit(ctx.services, ctx.services.db, {
      workspaceId: user.workspaceId,
      actor: user,
      action: "staff.signed_in",
      subject: { type: "member", id: user.id, label: user.fullName },
      details: { method },
    });
}

/** Ends this browser's session; SessionEnded closes its open sockets (other tabs). */
export async function signOut(ctx: AppContext): Promise<void> {
  const ended = ctx.state.session?.idHash;
  const userId = ctx.state.user?.id;
  const session = ctx.session;
  ctx.session = null;
  // The row goes now, before its sockets close.
  await session?.manuallyCommit();
  ctx.state.session = undefined;
  ctx.state.user = undefined;
  if (!ended || !userId) return;
  const { events, db } = ctx.services;
  events.dispatch(
    await events.record(db, { type: "SessionEnded", userId, sessionHashes: [ended] }),
  );
}
