import { hashToken } from "../auth/sessions";
import type { Database } from "../db/connection";

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
 * The session named by the cookie's token, unexpired, and its user. A client user needs a
 * conversation (a deleted client's user has nothing to listen to); its conversations (client
 * ids) come back too.
 */
export async function authenticateSocket(
  db: Database,
  token: string | undefined,
  now: Date,
): Promise<SocketAuthResult> {
  if (!token || token.length > 100) return { ok: false, status: 401, message: "Not signed in" };
  const sessionHash = hashToken(token);
  const result: Rows<{ uid: string; role: "owner" | "client"; convs: string[] | null }> =
    await db.raw(
      `select u.id as uid, u.role as role,
              (select json_agg(c.id) from clients c where c.user_id = u.id) as convs
         from sessions s join users u on u.id = s.user_id
        where s.id_hash = ? and s.expires_at > ?`,
      [sessionHash, now],
    );
  const row = result.rows[0];
  if (!row) return { ok: false, status: 401, message: "Not signed in" };
  const conversations = row.convs ?? [];
  if (row.role !== "owner" && conversations.length === 0) {
    return { ok: false, status: 403, message: "No conversation" };
  }
  return { ok: true, identity: { userId: row.uid, role: row.role, sessionHash }, conversations };
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
