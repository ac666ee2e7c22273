import type { Language } from "../../shared/i18n/languages";
import { msg } from "../../shared/i18n/msg";
import type { SessionStore } from "../auth/session-store";
import type { Database } from "../db/connection";
import { Client } from "../models";

/** Who a socket belongs to: a signed-in user and the session that opened it. */
export interface SocketIdentity {
  userId: string;
  role: "owner" | "client";
  sessionHash: string;
  /** How colleagues see this person in a conversation's presence (issue 26). */
  name: string;
  picture: string | null;
}

export type SocketAuthResult =
  | { ok: true; identity: SocketIdentity; conversations: string[]; expiresAt: Date }
  /** `message` is an errors catalog key; `language` the refused person's own, when known. */
  | { ok: false; status: 401 | 403; message: string; language?: Language | null };

interface Rows<T> {
  rows: T[];
}

/**
 * The session named by the cookie's token (read through the session store, bypassing its cache),
 * unexpired, and its user. A client user needs a conversation (a deleted client's user has
 * nothing to listen to); its conversations (client ids) come back too.
 */
export async function authenticateSocket(
  sessions: SessionStore,
  db: Database,
  token: string | undefined,
): Promise<SocketAuthResult> {
  const signedIn = token ? await sessions.loadStored(token) : undefined;
  if (!signedIn) return { ok: false, status: 401, message: msg("Not signed in") };
  const { user, session } = signedIn;
  const identity: SocketIdentity = {
    userId: user.id,
    role: user.role,
    sessionHash: session.idHash,
    name: user.fullName,
    // As presenters/user.ts `fileUrl` makes it (a service may not use presenters).
    picture: user.profilePicture ? `/api/download/${user.profilePicture}` : null,
  };
  const { expiresAt } = session;
  if (user.role === "owner") return { ok: true, identity, conversations: [], expiresAt };
  const rows = user.clientId ? await Client.live(db).select("id").where("id", user.clientId) : [];
  const conversations = rows.map((row) => row.id);
  if (conversations.length === 0)
    return { ok: false, status: 403, message: msg("No conversation"), language: user.language };
  return { ok: true, identity, conversations, expiresAt };
}

/**
 * The members of a conversation: its workspace's staff who have it (owner and admins, and the
 * members assigned to it; issue 26) and its contacts' users (none before joining).
 */
export interface Members {
  staffIds: string[];
  /** The users of its contacts who joined (issue 26). */
  clientUserIds: string[];
}

/** The members of conversation `clientId`; null when there is no such client (deleted, or kept for a restore). */
export async function loadMembers(db: Database, clientId: string): Promise<Members | null> {
  const result: Rows<{ staff: string[]; contacts: string[] }> = await db.raw(
    `select array(select u.id from users u where u.client_id = c.id and u.role = 'client')
              as contacts,
            array(select u.id from users u
                   where u.workspace_id = c.owner_id
                     and (u.team_role <> 'member' or exists (
                       select 1 from client_assignees a where a.client_id = c.id and a.user_id = u.id)))
              as staff
       from clients c where c.id = ? and c.deleted_at is null`,
    [clientId],
  );
  const row = result.rows[0];
  return row ? { staffIds: row.staff, clientUserIds: row.contacts } : null;
}

/**
 * When the session named by `sessionHash` expires now (its expiry slides while its browser makes
 * requests); null when it is gone or expired.
 */
export async function sessionExpiry(
  db: Database,
  sessionHash: string,
  now: Date,
): Promise<Date | null> {
  const result: Rows<{ expires: Date | string }> = await db.raw(
    "select expires_at as expires from sessions where id_hash = ? and expires_at > ?",
    [sessionHash, now],
  );
  const row = result.rows[0];
  return row ? new Date(row.expires) : null;
}
