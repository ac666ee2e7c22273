import { randomBytes } from "node:crypto";
import type { Knex } from "knex";
import { openToken, sealingKey, sealToken } from "../auth/sealed-tokens";
import { hashToken } from "../auth/sessions";
import type { Services } from "../context";
import { CLAIM_LEASE_MS } from "../idempotency/idempotency-key";

/**
 * Reply addresses: `reply+<token>@INBOUND_EMAIL_DOMAIN`, one per person and conversation.
 * The token is 128 random bits in lower-case hex (relays and forwarders may lower-case the
 * local part, so nothing case-sensitive), looked up by its SHA-256. It is also kept encrypted
 * (../auth/sealed-tokens: AES-256-GCM, key derived from the session secret, person and
 * conversation as associated data) so that every later mail to the same person about the same
 * conversation carries the same address: a reply to an older notification still arrives. A
 * stolen table yields no address without the secret.
 */

const TOKEN_BYTES = 16;
const TOKEN_PATTERN = /^[0-9a-f]{32}$/;
const LOCAL_PREFIX = "reply+";

export interface ReplyAddress {
  id: string;
  userId: string;
  clientId: string;
}

export const replyAddressOf = (token: string, domain: string) =>
  `${LOCAL_PREFIX}${token}@${domain}`;

/** The token of `reply+<token>@domain` (any case), or null for any other address. */
export function tokenOf(address: string, domain: string): string | null {
  const lower = address.trim().toLowerCase();
  const at = lower.lastIndexOf("@");
  if (at < 0 || lower.slice(at + 1) !== domain.toLowerCase()) return null;
  const local = lower.slice(0, at);
  if (!local.startsWith(LOCAL_PREFIX)) return null;
  const token = local.slice(LOCAL_PREFIX.length);
  return TOKEN_PATTERN.test(token) ? token : null;
}

export class ReplyAddresses {
  private readonly key: Buffer;

  constructor(
    private readonly db: Knex,
    secret: string,
    private readonly domain: string,
  ) {
    this.key = sealingKey(secret, "reply-address-encryption");
  }

  /**
   * The live reply address of this person in this conversation: the one already handed out,
   * else a new one. A row whose token no longer decrypts (the secret changed) is revoked and
   * replaced.
   */
  async addressFor(userId: string, clientId: string): Promise<string> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const live = await this.db("reply_addresses")
        .select("id", "token_encrypted as tokenEncrypted")
        .where({ user_id: userId, client_id: clientId })
        .whereNull("revoked_at")
        .first();
      if (live) {
        const token = this.decrypt(userId, clientId, live.tokenEncrypted);
        if (token) return replyAddressOf(token, this.domain);
        await this.db("reply_addresses")
          .where("id", live.id)
          .update({ revoked_at: this.db.fn.now() });
      }
      const token = randomBytes(TOKEN_BYTES).toString("hex");
      // Two mails minting at once: the partial unique index keeps one; the other reads it.
      const inserted: { rows: unknown[] } = await this.db.raw(
        `insert into reply_addresses (user_id, client_id, token_hash, token_encrypted)
         values (?, ?, ?, ?)
         on conflict (user_id, client_id) where revoked_at is null do nothing
         returning id`,
        [userId, clientId, hashToken(token), this.encrypt(userId, clientId, token)],
      );
      if (inserted.rows.length > 0) return replyAddressOf(token, this.domain);
    }
    throw new Error("could not mint a reply address");
  }

  /** The live address `address` names, or null (another domain, malformed, unknown, revoked). */
  async resolve(address: string): Promise<ReplyAddress | null> {
    const token = tokenOf(address, this.domain);
    if (!token) return null;
    const row = await this.db("reply_addresses")
      .select("id", "user_id as userId", "client_id as clientId")
      .where("token_hash", hashToken(token))
      .whereNull("revoked_at")
      .first();
    return row ?? null;
  }

  private encrypt(userId: string, clientId: string, token: string): string {
    return sealToken(this.key, `${userId}:${clientId}`, token);
  }

  private decrypt(userId: string, clientId: string, encrypted: string): string | null {
    const token = openToken(this.key, `${userId}:${clientId}`, encrypted);
    return token !== null && TOKEN_PATTERN.test(token) ? token : null;
  }
}

/** Revokes the reply addresses of `userId` in conversation `clientId` (e.g. a reissued invite). */
export async function revokeReplyAddresses(
  db: Knex,
  clientId: string,
  userId: string,
  now: Date,
): Promise<void> {
  await db("reply_addresses")
    .where({ client_id: clientId, user_id: userId })
    .whereNull("revoked_at")
    .update({ revoked_at: now });
}

/**
 * What claimMessageId found: this attempt may post ("claimed", with the time that names the
 * claim), the mail was already posted ("posted": drop it), or another attempt is posting it
 * now ("in_progress": refuse for now, the relay retries).
 */
export type MessageIdClaim =
  | { kind: "claimed"; claimedAt: Date }
  | { kind: "posted" }
  | { kind: "in_progress" };

/**
 * Claims `messageId` on this address before its reply is posted, atomically: of two
 * deliveries of the same mail one claims it. A claim left unposted (the attempt died, or could
 * not release it) is taken over once older than the lease (CLAIM_LEASE_MS, as for idempotency
 * keys), so the relay's retry posts the reply instead of losing it.
 */
export async function claimMessageId(
  db: Knex,
  addressId: string,
  messageId: string,
  now: Date,
): Promise<MessageIdClaim> {
  const hash = hashToken(messageId);
  const abandoned = new Date(now.getTime() - CLAIM_LEASE_MS);
  // A row released between our statements: look again (bounded).
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const claimed: { rows: unknown[] } = await db.raw(
      `insert into reply_message_ids (reply_address_id, message_id_hash, received_at)
       values (?, ?, ?)
       on conflict (reply_address_id, message_id_hash) do update
         set received_at = excluded.received_at
         where reply_message_ids.posted_at is null and reply_message_ids.received_at < ?
       returning reply_address_id`,
      [addressId, hash, now, abandoned],
    );
    if (claimed.rows.length > 0) return { kind: "claimed", claimedAt: now };
    const row: { postedAt: Date | string | null } | undefined = await db("reply_message_ids")
      .select("posted_at as postedAt")
      .where({ reply_address_id: addressId, message_id_hash: hash })
      .first();
    if (!row) continue;
    return row.postedAt === null ? { kind: "in_progress" } : { kind: "posted" };
  }
  return { kind: "in_progress" };
}

/** Marks `messageId` posted: from now on a mail with it is dropped as already received. */
export async function markMessageIdPosted(
  db: Knex,
  addressId: string,
  messageId: string,
  now: Date,
): Promise<void> {
  await db("reply_message_ids")
    .where({ reply_address_id: addressId, message_id_hash: hashToken(messageId) })
    .whereNull("posted_at")
    .update({ posted_at: now });
}

/**
 * Releases this attempt's claim when nothing was posted, so that a retry is considered
 * afresh; a claim taken over meanwhile (another received_at) or posted is left alone.
 */
export async function forgetMessageId(
  db: Knex,
  addressId: string,
  messageId: string,
  claimedAt: Date,
): Promise<void> {
  await db("reply_message_ids")
    .where({
      reply_address_id: addressId,
      message_id_hash: hashToken(messageId),
      received_at: claimedAt,
    })
    .whereNull("posted_at")
    .delete();
}

/** How long a received Message-ID is remembered: far longer than any relay retries a mail. */
export const MESSAGE_ID_DAYS = 30;

/** Forgets the Message-IDs received more than MESSAGE_ID_DAYS ago; answers how many. */
export async function deleteOldMessageIds(db: Knex, now: Date): Promise<number> {
  const before = new Date(now.getTime() - MESSAGE_ID_DAYS * 24 * 60 * 60_000);
  return db("reply_message_ids").where("received_at", "<", before).delete();
}

const perDatabase = new WeakMap<Knex, ReplyAddresses>();

/**
 * The Reply-To for a mail to `userId` about conversation `clientId`: their reply address when
 * reply by email is on (INBOUND_SMTP_PORT), else undefined. A failure to mint one is logged
 * and the mail goes without it.
 */
export async function replyToFor(
  services: Pick<Services, "db" | "config" | "logger">,
  userId: string | null,
  clientId: string,
): Promise<string | undefined> {
  const inbound = services.config.inboundMail;
  if (!inbound || !userId) return undefined;
  let addresses = perDatabase.get(services.db);
  if (!addresses) {
    addresses = new ReplyAddresses(services.db, services.config.sessionSecret, inbound.domain);
    perDatabase.set(services.db, addresses);
  }
  try {
    return await addresses.addressFor(userId, clientId);
  } catch (error) {
    services.logger.warn({ err: error, clientId }, "no reply address for this mail");
    return undefined;
  }
}
