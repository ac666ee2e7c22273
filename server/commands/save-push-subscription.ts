import type {
  DeletePushSubscriptionInput,
  SavePushSubscriptionInput,
} from "../../shared/schemas/push";
import type { Services } from "../context";
import { PushSubscription, type User } from "../models";

/** Browsers one user may have notifications on at once; the oldest beyond it is dropped. */
export const MAX_PUSH_SUBSCRIPTIONS_PER_USER = 20;

/**
 * Turns notifications on for this browser: upserted by endpoint (one browser, one row), bound
 * to the signed-in user and to this session (signing out removes it). An endpoint another
 * account had is this account's now: the browser is signed in as this one.
 */
export async function savePushSubscription(
  services: Pick<Services, "db">,
  actor: User,
  sessionHash: string,
  input: SavePushSubscriptionInput,
): Promise<void> {
  await services.db.transaction(async (trx) => {
    await PushSubscription.query(trx)
      .insert({
        userId: actor.id,
        sessionHash,
        endpoint: input.endpoint,
        p256dh: input.keys.p256dh,
        auth: input.keys.auth,
      })
      .onConflict("endpoint")
      .merge(["userId", "sessionHash", "p256dh", "auth"]);
    const beyond = PushSubscription.query(trx)
      .select("id")
      .where("userId", actor.id)
      .orderBy("createdAt", "desc")
      .offset(MAX_PUSH_SUBSCRIPTIONS_PER_USER);
    await PushSubscription.query(trx).whereIn("id", beyond).delete();
  });
}

/** Turns notifications off for this browser; an endpoint that is not the actor's is left alone. */
export async function deletePushSubscription(
  services: Pick<Services, "db">,
  actor: User,
  input: DeletePushSubscriptionInput,
): Promise<void> {
  await PushSubscription.query(services.db)
    .where({ userId: actor.id, endpoint: input.endpoint })
    .delete();
}
