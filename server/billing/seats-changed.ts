import type { Knex } from "knex";
import { type AuditActor, BILLING_ACTOR, recordAudit } from "../audit/record-audit";
import type { Services } from "../context";
import type { SeatsChange } from "./billing-state";

/**
 * The workspace's audit log gets a change of its bought seats in the billing change's
 * transaction (issue 26): by the owner who changed them here, else by "Billing" (Stripe's
 * events: a change made in Stripe's dashboard, the seat item going with a downgrade).
 */
export async function recordSeatsChange(
  services: Pick<Services, "clock">,
  trx: Knex.Transaction,
  change: SeatsChange | null,
  actor: AuditActor = BILLING_ACTOR,
): Promise<void> {
  if (!change) return;
  await recordAudit(services, trx, {
    workspaceId: change.ownerId,
    actor,
    action: "seats.changed",
    subject: { type: "workspace", id: change.ownerId, label: "Seats" },
    details: { seats: change.after, previousSeats: change.before },
  });
}
