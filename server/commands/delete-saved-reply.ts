import type { Services } from "../context";
import { SavedReply, type User } from "../models";
import { savedRepliesPolicy } from "../policies/saved-replies";
import { findSavedReply } from "../queries/saved-replies";
import { isUuid } from "../validate";

/** Deletes a saved reply (issue 28): its author's, or the owner's and admins'. */
export async function deleteSavedReply(services: Services, actor: User, id: string): Promise<void> {
  savedRepliesPolicy.authorize(actor, "use");
  const workspaceId = actor.workspaceId!;
  const reply = isUuid(id) ? await findSavedReply(services.db, workspaceId, id) : undefined;
  savedRepliesPolicy.authorize(actor, "change", reply);
  await SavedReply.query(services.db).delete().where({ id, workspaceId });
}
