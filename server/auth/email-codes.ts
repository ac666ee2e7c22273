import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import type { Knex } from "knex";
import type { Clock } from "../clock";
import { EmailCode, type EmailCodePurpose } from "../models/EmailCode";

const MINUTE = 60_000;

export const CODE_LIFETIME_MS: Record<EmailCodePurpose, number> = {
  verify_email: 10 * MINUTE,
  reset_password: 15 * MINUTE,
  sign_in_link: 15 * MINUTE,
};
export const MAX_FAILED_ATTEMPTS = 10;
/** Codes one user may be sent per purpose and hour. */
const MAX_ISSUED_PER_HOUR = 5;

export class EmailCodes {
  constructor(
    private readonly secret: string,
    private readonly clock: Clock,
  ) {}

  private hash(userId: string, purpose: EmailCodePurpose, code: string): string {
    return createHmac("sha256", this.secret).update(`${purpose}:${userId}:${code}`).digest("hex");
  }

  /**
   * Issues a new 6-digit code, replacing any earlier one of that purpose; null past the cap of
   * codes per hour. The cap never shows in an answer (the caller just sends nothing): an
   * answer that depended on it would tell who has an account.
   */
  async issue(userId: string, purpose: EmailCodePurpose, trx?: Knex.Transaction): Promise<string | null> {
    const now = this.clock.now();
    const hourAgo = new Date(now.getTime() - 60 * MINUTE);
    const recent = await EmailCode.query(trx)
      .where({ userId, purpose })
      .where("createdAt", ">", hourAgo)
      .resultSize();
    if (recent >= MAX_ISSUED_PER_HOUR) return null;
    await EmailCode.query(trx).patch({ usedAt: now }).where({ userId, purpose }).whereNull("usedAt");
    const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
    await EmailCode.query(trx).insert({
      userId,
      purpose,
      codeHash: this.hash(userId, purpose, code),
      expiresAt: new Date(now.getTime() + CODE_LIFETIME_MS[purpose]),
      createdAt: now,
    });
    return code;
  }

  /**
   * Uses up the code if it matches the live one. A wrong guess counts against it, and the
   * tenth wrong guess kills it.
   */
  async consume(userId: string, purpose: EmailCodePurpose, code: string, trx: Knex.Transaction): Promise<boolean> {
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
      await EmailCode.query(trx).patch({ usedAt: now }).where("id", live.id);
      return true;
    }
    const failedAttempts = live.failedAttempts + 1;
    await EmailCode.query(trx)
      .patch({ failedAttempts, usedAt: failedAttempts >= MAX_FAILED_ATTEMPTS ? now : null })
      .where("id", live.id);
    return false;
  }
}
