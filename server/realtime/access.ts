import type { SessionStore } from "../auth/session-store";
import type { Database } from "../db/connection";
import { Client } from "../models";

/** Who a socket belongs to: a signed-in user and the session that opened it. */
export interface SocketIdentity {
  userId: string;
  role: "owner" | "client";
  sessionHash: string;
}

export type SocketAuthResult =
  | { ok: true; identity: SocketIdentity; conversations: string[] }
  | { ok: false; status: 401 | 403; message: string };

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
  if (!signedIn) return { ok: false, status: 401, message: "Not signed in" };
  const { user, session } = signedIn;
  const identity: SocketIdentity = {
    userId: user.id,
    role: user.role,
    sessionHash: session.idHash,
  };
  if (user.role === "owner") return { ok: true, identity, conversations: [] };
  const rows = await Client.query(db).select("id").where("userId", user.id);
  const conversations = rows.map((row) => row.id);
  if (conversations.length === 0) return { ok: false, status: 403, message: "No conversation" };
  return { ok: true, identity, conversations };
}

/** The two members of a conversation: its owner and its client user (none before joining). */
export interface Members {
  ownerId: string;
  clientUserId: string | null;
}

/** The members of conversation `clientId`; null when there is no such client (deleted). */
export async function loadMembers(db: Database, clientId: string): Promise<Members | null> {
  const result: Rows<{ owner: string; member: string | null }> = await db.raw(
    "select c.owner_id as owner, c.user_id as member from clients c where c.id = ?",
    [clientId],
  );
  const row = result.rows[0];
  return row ? { ownerId: row.owner, clientUserId: row.member } : null;
}

/**
 * Of these sessions, those still valid for a socket: unexpired, and for a client user, with
 * a conversation still there.
 */
export async function stillAllowed(
  db: Database,
  sessionHashes: string[],
  now: Date,
): Promise<Set<string>> {
  const allowed = new Set<string>();
  const CHUNK = 500;
  for (let i = 0; i < sessionHashes.length; i += CHUNK) {
    const chunk = sessionHashes.slice(i, i + CHUNK);
    const result: Rows<{ hash: string }> = await db.raw(
      `select s.id_hash as hash
         from sessions s join users u on u.id = s.user_id
        where s.id_hash in (select json_array_elements_text(?::json)) and s.expires_at > ?
          and (u.role = 'owner' or exists (select 1 from clients c where c.user_id = u.id))`,
      [JSON.stringify(chunk), now],
    );
    for (const row of result.rows) allowed.add(row.hash);
  }
  return allowed;
}
