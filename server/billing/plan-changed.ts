import type { Knex } from "knex";
import type { Services } from "../context";
import type { RecordedEvent } from "../domain-events/events";

/**
 * Records PlanChanged for the account whose plan changed (`ownerId`, or null: none), in the
 * billing change's transaction: once dispatched, its clients' open portals drop or gain the
 * owner's branding with the plan.
 */
export async function recordPlanChange(
  services: Pick<Services, "events">,
  trx: Knex.Transaction,
  ownerId: string | null,
): Promise<RecordedEvent | null> {
  return ownerId ? await services.events.record(trx, { type: "PlanChanged", ownerId }) : null;
}
