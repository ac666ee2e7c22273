import type { Next } from "koa";
import type { AppContext } from "../context";
import { conflict, unprocessable } from "../errors";
import { type Claim, claimKey, releaseClaim, saveAnswer } from "../idempotency/claims";
import { runWithClaim } from "../idempotency/current-claim";
import { IDEMPOTENCY_MESSAGES, idempotencyKeyOf } from "../idempotency/idempotency-key";
import { currentUser } from "./authenticated";

export interface IdempotentOptions {
  /** Presents the stored message when its answer was lost before being saved (sets status, body). */
  presentStored(ctx: AppContext, messageId: string): Promise<void>;
}

/**
 * Makes a POST that stores one message safe to retry: with an Idempotency-Key header, the same
 * key from the same user within 24 h answers the first result (status and body) and does
 * nothing again (no row, no realtime event). Without the header the route runs as before.
 * A duplicate while the first is still running answers 409 (Retry-After: 1); the key on
 * another method or path, 422. A failed attempt (4xx, 5xx, thrown) frees the key.
 * Goes after `authenticated` (keys are per user) and before the body is read.
 */
export function idempotent(options: IdempotentOptions) {
  return async (ctx: AppContext, next: Next) => {
    const key = idempotencyKeyOf(ctx.headers["idempotency-key"]);
    if (key === undefined) return next();
    const { db, clock } = ctx.services;
    const fingerprint = `${ctx.method} ${ctx.path}`;
    const result = await claimKey(db, clock.now(), currentUser(ctx).id, key, fingerprint);
    switch (result.kind) {
      case "reused":
        throw unprocessable(IDEMPOTENCY_MESSAGES.reused);
      case "in_progress":
        ctx.set("Retry-After", "1");
        throw conflict(IDEMPOTENCY_MESSAGES.inProgress);
      case "answered":
        ctx.set("Idempotent-Replayed", "true");
        ctx.status = result.status;
        ctx.body = result.body;
        return;
      case "stored":
        ctx.set("Idempotent-Replayed", "true");
        await options.presentStored(ctx, result.messageId);
        await saveAnswer(db, result.claim, ctx.status, ctx.body);
        return;
      case "claimed":
        return runClaimed(ctx, next, result.claim);
    }
  };
}

async function runClaimed(ctx: AppContext, next: Next, claim: Claim) {
  const { db } = ctx.services;
  try {
    await runWithClaim(claim, () => next());
  } catch (error) {
    await releaseClaim(db, claim).catch((releaseError: unknown) =>
      ctx.services.logger.warn({ err: releaseError }, "could not release an idempotency key"),
    );
    throw error;
  }
  if (ctx.status >= 400) await releaseClaim(db, claim);
  else await saveAnswer(db, claim, ctx.status, ctx.body);
}
