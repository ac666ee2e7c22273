import type { ClientAssignees, ClientAssigneesInput } from "../../shared/schemas/clients";
import { recordAudit } from "../audit/record-audit";
import type { Services } from "../context";
import { badRequest } from "../errors";
import { type Client, User } from "../models";

/**
 * Replaces who handles `client` (issue 26): people of its workspace only, one of them the lead.
 * The client's row is locked so that two changes at once apply one after the other. Records
 * ClientAssigneesChanged for those who had it and those who have it now, and the audit entry
 * (the assignees by name, the lead first).
 */
export async function setClientAssignees(
  services: Services,
  actor: User,
  client: Client,
  input: ClientAssigneesInput,
): Promise<ClientAssignees> {
  const recorded = await services.db.transaction(async (trx) => {
    await trx("clients").select("id").where("id", client.id).forUpdate();
    const staff = input.userIds.length
      ? await User.query(trx)
          .select("id", "fullName")
          .where("workspaceId", client.ownerId)
          .whereIn("id", input.userIds)
      : [];
    if (staff.length !== input.userIds.length) throw badRequest("Assign people of your team");
    const before: { userId: string }[] = await trx("client_assignees")
      .select("userId")
      .where("clientId", client.id);
    // Deleted, then written anew: the delete also empties this instance's client cache at once.
    await trx("client_assignees").delete().where("clientId", client.id);
    if (input.userIds.length)
      await trx("client_assignees").insert(
        input.userIds.map((userId) => ({
          clientId: client.id,
          userId,
          isLead: userId === input.leadUserId,
        })),
      );
    const lead = staff.filter((person) => person.id === input.leadUserId);
    await recordAudit(services, trx, {
      workspaceId: client.ownerId,
      actor,
      action: "client.assigned",
      subject: { type: "client", id: client.id, label: client.name },
      details: {
        assignees: [...lead, ...staff.filter((person) => person.id !== input.leadUserId)].map(
          (person) => person.fullName,
        ),
      },
    });
    return await services.events.record(trx, {
      type: "ClientAssigneesChanged",
      clientId: client.id,
      userIds: [...new Set([...before.map((row) => row.userId), ...input.userIds])],
    });
  });
  services.events.dispatch(recorded);
  return { assigneeIds: input.userIds, leadUserId: input.leadUserId };
}
