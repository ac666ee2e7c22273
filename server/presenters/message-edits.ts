import type { MessageEditsPayload } from "../../shared/schemas/message-changes";
import type { PreviousText } from "../queries/message-edits";

/** A message's previous texts as the workspace's staff read them (issue 28). */
export function presentMessageEdits(edits: PreviousText[]): MessageEditsPayload {
  return {
    edits: edits.map((edit) => ({
      content: edit.content,
      editedAt: new Date(edit.editedAt).toISOString(),
      editorName: edit.editorName ?? null,
    })),
  };
}
