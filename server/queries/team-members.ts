import type { Knex } from "knex";
import { User } from "../models";

/** The members of workspace `workspaceId`: its owner first, then by when they joined. */
export async function listTeamMembers(db: Knex, workspaceId: string): Promise<User[]> {
  return await User.query(db)
    .where("workspaceId", workspaceId)
    .orderByRaw("team_role = 'owner' desc")
    .orderBy("createdAt")
    .orderBy("id");
}
