import { type CreateSavedReplyInput, MAX_SAVED_REPLIES } from "../../shared/schemas/saved-replies";
import type { Services } from "../context";
import { badRequest } from "../errors";
import { SavedReply, type User } from "../models";
import { savedRepliesPolicy } from "../policies/saved-replies";
import type { ListedSavedReply } from "../queries/saved-replies";
import { lockWorkspace, refuseTakenTitle } from "./saved-reply-titles";

/** Adds a saved reply to the actor's workspace (issue 28), written by them. */
export async function createSavedReply(
  services: Services,
  actor: User,
  input: CreateSavedReplyInput,
): Promise<ListedSavedReply> {
  savedRepliesPolicy.authorize(actor, "use");
  const workspaceId = actor.workspaceId!;
  return services.db.transaction(async (trx) => {
    await lockWorkspace(trx, workspaceId);
    const count = await SavedReply.query(trx).where("workspaceId", workspaceId).resultSize();
    if (count >= MAX_SAVED_REPLIES)
      throw badRequest(
        "A workspace can keep up to {{max}} saved replies: delete one to add another",
        { max: MAX_SAVED_REPLIES },
      );
    await refuseTakenTitle(trx, workspaceId, input.title);
    const now = services.clock.now();
    const reply = await SavedReply.query(trx).insertAndFetch({
      workspaceId,
      createdBy: actor.id,
      title: input.title,
      text: input.text,
      createdAt: now,
      updatedAt: now,
    });
    return Object.assign(reply, { createdByName: actor.fullName as string | null });
  });
}
