import type { Knex } from "knex";
import { Client, User } from "../models";
import { isUuid } from "../validate";

/** The members of workspace `workspaceId`: its owner first, then by when they joined. */
export async function listTeamMembers(db: Knex, workspaceId: string): Promise<User[]> {
  return await User.query(db)
    .where("workspaceId", workspaceId)
    .orderByRaw("team_role = 'owner' desc")
    .orderBy("createdAt")
    .orderBy("id");
}

/** A member of the workspace by id; undefined for anyone else (or an id that is no uuid). */
export async function findTeamMember(
  db: Knex,
  workspaceId: string,
  id: string,
): Promise<User | undefined> {
  if (!isUuid(id)) return undefined;
  return await User.query(db).findOne({ id, workspaceId });
}

/** Someone in the workspace with this address (any case). */
export async function memberWithEmail(
  db: Knex,
  workspaceId: string,
  email: string,
): Promise<User | undefined> {
  return await User.query(db)
    .where("workspaceId", workspaceId)
    .whereRaw("lower(email) = ?", [email.toLowerCase()])
    .first();
}

/** Whether `userId`'s own workspace holds anything besides them: clients or other members. */
export async function ownWorkspaceInUse(db: Knex, userId: string): Promise<boolean> {
  const [clients, others] = await Promise.all([
    Client.countOfOwner(db, userId),
    User.query(db).where("workspaceId", userId).whereNot("id", userId).resultSize(),
  ]);
  return clients > 0 || others > 0;
}
