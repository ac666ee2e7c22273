import { raw } from "objection";
import type { DeleteAccountInput } from "../../shared/schemas/user";
import { billingProvider } from "../billing/provider";
import type { Services } from "../context";
import { recipientFrom } from "../i18n/recipient-language";
import { badGateway } from "../errors";
import { accountDeletedMail } from "../mail/account-mails";
import { Client, type Session, StoredFile, User } from "../models";
import { confirmIdentity } from "../policies/recent-sign-in";
import { deleteStoredFiles } from "../storage/delete-stored-files";
import { deleteClientRows } from "./delete-client";
import { msg } from "../../shared/i18n/msg";

export const DELETE_ACCOUNT_MESSAGES = {
  billing: msg(
    "We could not cancel your subscription with the payment provider, so nothing was deleted. Please try again.",
  ),
} as const;

/**
 * Deletes an owner's account for good: the subscription is cancelled at the provider first
 * (if that fails nothing is deleted, so nobody pays for an account that is gone), then, in one
 * transaction, every client with its messages and files (deleteClientRows), the owner's images
 * and the owner (a team's other people keep their accounts, each in a workspace of their own), with the confirmation mail written to the outbox and AccountDeleted recorded
 * (the owner's and the clients' sockets close). Then the stored bytes go.
 */
export async function deleteAccount(
  services: Services,
  actor: User,
  session: Session | undefined,
  input: DeleteAccountInput,
): Promise<void> {
  await confirmIdentity(actor, session, input.password, services.clock.now(), "deleteAccount");

  const { stripeSubscriptionId, subscriptionStatus } = actor;
  if (stripeSubscriptionId && subscriptionStatus !== "canceled" && subscriptionStatus !== "none") {
    try {
      await billingProvider(services).cancelNow(stripeSubscriptionId);
    } catch (error) {
      services.logger.error(
        { err: error, userId: actor.id },
        "could not cancel the subscription of an account being deleted",
      );
      throw badGateway(DELETE_ACCOUNT_MESSAGES.billing);
    }
  }

  const deleted = await services.db.transaction(async (trx) => {
    const userIds = [actor.id];
    const names = new Set<string>();
    const owner = await User.query(trx).findById(actor.id).forUpdate();
    if (!owner) return { recorded: [], storedNames: [] };
    for (const client of await Client.query(trx).select("id").where("ownerId", owner.id)) {
      const gone = await deleteClientRows(trx, client.id);
      if (gone) userIds.push(...gone.userIds);
      for (const name of gone?.storedNames ?? []) names.add(name);
    }
    const images = new Set(
      (
        await StoredFile.query(trx)
          .select("storedName")
          .where({ uploadedBy: owner.id, clientId: null })
      ).map((row) => row.storedName),
    );
    for (const name of [owner.profilePicture, owner.companyLogo]) if (name) images.add(name);
    await StoredFile.query(trx)
      .delete()
      .whereIn("storedName", [...images])
      .whereNull("clientId");
    for (const name of images) names.add(name);
    // The workspace goes with its owner, its people's accounts do not (issue 26): each is a
    // workspace of their own again, as after a removal (the row's cascade would delete them).
    await User.query(trx)
      .patch({ workspaceId: raw("id"), teamRole: "owner" })
      .where("workspaceId", owner.id)
      .whereNot("id", owner.id);
    // Sessions and codes go with the row (foreign keys cascade).
    await User.query(trx).deleteById(owner.id);
    await services.outbox.enqueue(
      trx,
      accountDeletedMail(
        owner.email,
        owner.fullName,
        services.config.appUrl,
        recipientFrom(owner, null, owner).language,
      ),
      "account-deleted",
    );
    const recorded = await services.events.record(trx, { type: "AccountDeleted", userIds });
    return { recorded, storedNames: [...names] };
  });

  services.events.dispatch(deleted.recorded);
  await deleteStoredFiles(services, deleted.storedNames);
  services.logger.info({ userId: actor.id }, "account deleted by its owner");
}
