import type { RetentionInput } from "../../shared/schemas/deleted-clients";
import { recordAudit } from "../audit/record-audit";
import type { Services } from "../context";
import { User } from "../models";

/**
 * Sets how many days the actor's workspace keeps a deleted client (issue 28). Clients deleted
 * already follow the new days from their deletion: fewer days may put some past their date, and
 * the purge job removes them on its next pass.
 */
export async function setClientRetention(
  services: Services,
  actor: User,
  input: RetentionInput,
): Promise<number> {
  const workspaceId = actor.workspaceId ?? actor.id;
  await services.db.transaction(async (trx) => {
    await User.query(trx)
      .patch({ deletedClientRetentionDays: input.days })
      .where({ id: workspaceId });
    await recordAudit(services, trx, {
      workspaceId,
      actor,
      action: "workspace.retention_changed",
      subject: { type: "workspace", id: workspaceId, label: "Deleted clients" },
      details: { keptDays: input.days },
    });
  });
  return input.days;
}
