import type { Knex } from "knex";

/** A text a message had before an edit, with who replaced it (null once they are gone). */
export interface PreviousText {
  content: string;
  editedAt: Date;
  editorName: string | null;
}

/** The previous texts of message `messageId`, oldest first (issue 28). */
export function loadPreviousTexts(db: Knex, messageId: string): Promise<PreviousText[]> {
  return db("messageEdits as e")
    .select("e.content", "e.editedAt", "u.fullName as editorName")
    .leftJoin("users as u", "u.id", "e.editorId")
    .where("e.messageId", messageId)
    .orderBy([{ column: "e.editedAt" }, { column: "e.id" }]);
}
