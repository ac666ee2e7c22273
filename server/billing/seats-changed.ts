import type { Knex } from "knex";
import { type AuditActor, BILLING_ACTOR, recordAudit } from "../audit/record-audit";
import type { Services } from "../context";
import type { RecordedEvent } from "../domain-events/events";
import type { SeatsChange } from "./billing-state";

/**
 * The workspace's audit log gets a change of its bought seats in the billing change's
 * transaction (issue 26): by the owner who changed them here, else by "Billing" (Stripe's
 * events: a change made in Stripe's dashboard, the seat item going with a downgrade). Records
 * TeamChanged too (dispatch it after commit): the workspace's open Team tabs show the seats.
 */
export async function recordSeatsChange(
  services: Pick<Services, "clock" | "events">,
  trx: Knex.Transaction,
  change: SeatsChange | null,
  actor: AuditActor = BILLING_ACTOR,
): Promise<RecordedEvent | null> {
  if (!change) return null;
  await recordAudit(services, trx, {
    workspaceId: change.ownerId,
    actor,
    action: "seats.changed",
    subject: { type: "workspace", id: change.ownerId, label: "Seats" },
    details: { seats: change.after, previousSeats: change.before },
  });
  return await services.events.record(trx, { type: "TeamChanged", workspaceId: change.ownerId });
}
