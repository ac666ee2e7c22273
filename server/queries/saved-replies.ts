import type { Knex } from "knex";
import { SavedReply } from "../models";

/** A saved reply with the name of who wrote it (null once their account is gone). */
export type ListedSavedReply = SavedReply & { createdByName: string | null };

const withAuthor = (db: Knex) =>
  SavedReply.query(db)
    .leftJoin("users as author", "author.id", "savedReplies.createdBy")
    .select("savedReplies.*", "author.fullName as createdByName");

/** The workspace's saved replies by title, whatever its case. */
export async function listSavedReplies(db: Knex, workspaceId: string): Promise<ListedSavedReply[]> {
  return (await withAuthor(db)
    .where("savedReplies.workspaceId", workspaceId)
    .orderByRaw("lower(saved_replies.title), saved_replies.id")) as ListedSavedReply[];
}

/** One saved reply of the workspace; undefined for another workspace's or an unknown id. */
export async function findSavedReply(
  db: Knex,
  workspaceId: string,
  id: string,
): Promise<ListedSavedReply | undefined> {
  return (await withAuthor(db)
    .where("savedReplies.workspaceId", workspaceId)
    .findOne("savedReplies.id", id)) as ListedSavedReply | undefined;
}
