import type { SavedReply as SavedReplyPayload } from "../../shared/schemas/saved-replies";
import type { ListedSavedReply } from "../queries/saved-replies";

/** A saved reply as the workspace's staff list it; `canChange` is the viewer's (the policy's). */
export function presentSavedReply(reply: ListedSavedReply, canChange: boolean): SavedReplyPayload {
  return {
    id: reply.id,
    title: reply.title,
    text: reply.text,
    createdByName: reply.createdByName,
    createdAt: reply.createdAt.toISOString(),
    updatedAt: reply.updatedAt.toISOString(),
    canChange,
  };
}
