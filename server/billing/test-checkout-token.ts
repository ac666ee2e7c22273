import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { PAID_TIERS } from "../../shared/schemas/billing";
import { BILLING_PERIODS } from "../../shared/tiers";

/**
 * A test-mode checkout session, carried in its own signed id (nothing to store): who pays,
 * for which plan, until when. The nonce names the subscription and its events, so paying the
 * same session twice replays the same event ids and changes nothing the second time.
 */
const payloadSchema = z.object({
  userId: z.string(),
  tier: z.enum(PAID_TIERS),
  period: z.enum(BILLING_PERIODS),
  nonce: z.string(),
  expiresAt: z.number(),
});
export type TestCheckoutSession = z.infer<typeof payloadSchema>;

const LIFETIME_MS = 60 * 60_000;

export class TestCheckoutTokens {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac("sha256", secret).update("test-mode checkout").digest();
  }

  issue(input: Omit<TestCheckoutSession, "nonce" | "expiresAt">, now: Date): string {
    const payload: TestCheckoutSession = {
      ...input,
      nonce: randomBytes(12).toString("hex"),
      expiresAt: now.getTime() + LIFETIME_MS,
    };
    const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
    return `${body}.${this.sign(body)}`;
  }

  /** The session, or null when the id is forged, malformed or expired. */
  read(token: string | undefined, now: Date): TestCheckoutSession | null {
    const [body, signature, extra] = (token ?? "").split(".");
    if (!body || !signature || extra !== undefined) return null;
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    try {
      const payload = payloadSchema.parse(
        JSON.parse(Buffer.from(body, "base64url").toString("utf8")),
      );
      return payload.expiresAt > now.getTime() ? payload : null;
    } catch {
      return null;
    }
  }

  private sign(body: string): string {
    return createHmac("sha256", this.key).update(body).digest("base64url");
  }
}
