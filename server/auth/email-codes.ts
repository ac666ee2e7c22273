import { createHmac, randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import type { Knex } from "knex";
import type { Clock } from "../clock";
import { EmailCode, type EmailCodePurpose } from "../models/EmailCode";
import { openToken, sealToken, sealingKey } from "./sealed-tokens";

const MINUTE = 60_000;

export const CODE_LIFETIME_MS: Record<EmailCodePurpose, number> = {
  verify_email: 10 * MINUTE,
  reset_password: 15 * MINUTE,
  sign_in_link: 15 * MINUTE,
};
export const MAX_FAILED_ATTEMPTS = 10;
/** Mails with a code one user may be sent per purpose and hour (new codes and re-sends). */
export const MAX_SENT_PER_HOUR = 5;
/** A live code is sent again only while this much of its life is left; else a new one replaces it. */
export const MIN_LIFE_TO_RESEND_MS = 3 * MINUTE;

type CodePurpose = Exclude<EmailCodePurpose, "sign_in_link">;

export class EmailCodes {
  private readonly sealing: Buffer;

  constructor(
    private readonly secret: string,
    private readonly clock: Clock,
  ) {
    this.sealing = sealingKey(secret, "email-codes");
  }

  private hash(userId: string, purpose: EmailCodePurpose, code: string): string {
    return createHmac("sha256", this.secret).update(`${purpose}:${userId}:${code}`).digest("hex");
  }

  /**
   * The code to mail now: the live one again while it has MIN_LIFE_TO_RESEND_MS left (so asking
   * again, or someone else asking for this address, never kills the code its owner holds), else
   * a new 6-digit code replacing any earlier one. Null past the cap of mails per hour: the cap
   * never shows in an answer (the caller just sends nothing), or the answer would tell who has
   * an account.
   */
  async codeToSend(
    userId: string,
    purpose: CodePurpose,
    trx: Knex.Transaction,
  ): Promise<string | null> {
    const now = this.clock.now();
    const hourAgo = new Date(now.getTime() - 60 * MINUTE);
    const recent = await EmailCode.query(trx)
      .where({ userId, purpose })
      .where("createdAt", ">", hourAgo)
      .orderBy("createdAt", "desc")
      .forUpdate();
    const sent = recent.reduce((sum, code) => sum + 1 + code.resentCount, 0);
    if (sent >= MAX_SENT_PER_HOUR) return null;
    const live = recent[0];
    if (
      live?.usedAt === null &&
      live.codeSealed &&
      live.expiresAt.getTime() - now.getTime() >= MIN_LIFE_TO_RESEND_MS
    ) {
      const code = openToken(this.sealing, live.id, live.codeSealed);
      if (code !== null) {
        await EmailCode.query(trx)
          .patch({ resentCount: live.resentCount + 1 })
          .where("id", live.id);
        return code;
      }
    }
    await EmailCode.query(trx)
      .patch({ usedAt: now, codeSealed: null })
      .where({ userId, purpose })
      .whereNull("usedAt");
    const id = randomUUID();
    const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
    await EmailCode.query(trx).insert({
      id,
      userId,
      purpose,
      codeHash: this.hash(userId, purpose, code),
      codeSealed: sealToken(this.sealing, id, code),
      expiresAt: new Date(now.getTime() + CODE_LIFETIME_MS[purpose]),
      createdAt: now,
    });
    return code;
  }

  /**
   * Uses up the code if it matches the live one. A wrong guess counts against it, and the
   * tenth wrong guess kills it.
   */
  async consume(
    userId: string,
    purpose: EmailCodePurpose,
    code: string,
    trx: Knex.Transaction,
  ): Promise<boolean> {
    const now = this.clock.now();
    const live = await EmailCode.query(trx)
      .where({ userId, purpose })
      .whereNull("usedAt")
      .where("expiresAt", ">", now)
      .orderBy("createdAt", "desc")
      .forUpdate()
      .first();
    if (!live) return false;
    const expected = Buffer.from(live.codeHash, "hex");
    const actual = Buffer.from(this.hash(userId, purpose, code.trim()), "hex");
    if (timingSafeEqual(expected, actual)) {
      // The sealed copy goes with use: a used code is never needed again.
      await EmailCode.query(trx).patch({ usedAt: now, codeSealed: null }).where("id", live.id);
      return true;
    }
    const failedAttempts = live.failedAttempts + 1;
    const dead = failedAttempts >= MAX_FAILED_ATTEMPTS;
    await EmailCode.query(trx)
      .patch({ failedAttempts, usedAt: dead ? now : null, ...(dead ? { codeSealed: null } : {}) })
      .where("id", live.id);
    return false;
  }
}
