import { z } from "zod";
import { sendMessageInput } from "./messages";

/** Body of PATCH /api/messages/{id} (issue 28): the new text, as a message is sent. */
export const editMessageInput = z.strictObject({ content: sendMessageInput.shape.content });
export type EditMessageInput = z.infer<typeof editMessageInput>;

/** One text a message had before an edit, and who replaced it (null once they are gone). */
export const previousTextSchema = z.strictObject({
  content: z.string(),
  editedAt: z.string(),
  editorName: z.string().nullable(),
});
export type PreviousTextPayload = z.infer<typeof previousTextSchema>;

/** Answer of GET /api/messages/{id}/edits (the workspace's staff): oldest first. */
export const messageEditsSchema = z.strictObject({ edits: z.array(previousTextSchema) });
export type MessageEditsPayload = z.infer<typeof messageEditsSchema>;
