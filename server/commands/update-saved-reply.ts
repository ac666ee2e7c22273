import type { UpdateSavedReplyInput } from "../../shared/schemas/saved-replies";
import type { Services } from "../context";
import { SavedReply, type User } from "../models";
import { savedRepliesPolicy } from "../policies/saved-replies";
import { findSavedReply, type ListedSavedReply } from "../queries/saved-replies";
import { isUuid } from "../validate";
import { lockWorkspace, refuseTakenTitle } from "./saved-reply-titles";

/** Changes a saved reply's title or text (issue 28): its author's, or the owner's and admins'. */
export async function updateSavedReply(
  services: Services,
  actor: User,
  id: string,
  input: UpdateSavedReplyInput,
): Promise<ListedSavedReply> {
  savedRepliesPolicy.authorize(actor, "use");
  const workspaceId = actor.workspaceId!;
  return services.db.transaction(async (trx) => {
    await lockWorkspace(trx, workspaceId);
    const reply = isUuid(id) ? await findSavedReply(trx, workspaceId, id) : undefined;
    savedRepliesPolicy.authorize(actor, "change", reply);
    if (input.title !== undefined) await refuseTakenTitle(trx, workspaceId, input.title, id);
    await SavedReply.query(trx)
      .patch({ ...input, updatedAt: services.clock.now() })
      .where({ id, workspaceId });
    return (await findSavedReply(trx, workspaceId, id))!;
  });
}
