import type { Knex } from "knex";
import { BILLING_ACTOR, recordAudit } from "../audit/record-audit";
import type { Services } from "../context";
import type { RecordedEvent } from "../domain-events/events";
import { User } from "../models";

/**
 * Records PlanChanged for the account whose plan changed (`ownerId`, or null: none), in the
 * billing change's transaction: once dispatched, its clients' open portals drop or gain the
 * owner's branding with the plan. The workspace's audit log gets the new plan in the same
 * transaction, by "Billing": Stripe's events and the grace period's end come from no person.
 */
export async function recordPlanChange(
  services: Pick<Services, "events" | "clock">,
  trx: Knex.Transaction,
  ownerId: string | null,
): Promise<RecordedEvent | null> {
  if (!ownerId) return null;
  const owner = await User.query(trx).findById(ownerId).select("accountTier", "workspaceId");
  if (owner?.workspaceId)
    await recordAudit(services, trx, {
      workspaceId: owner.workspaceId,
      actor: BILLING_ACTOR,
      action: "plan.changed",
      subject: { type: "workspace", id: owner.workspaceId, label: "Plan" },
      details: { tier: owner.accountTier },
    });
  return await services.events.record(trx, { type: "PlanChanged", ownerId });
}
