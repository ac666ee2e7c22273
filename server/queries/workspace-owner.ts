import type { Knex } from "knex";
import { User } from "../models";

/**
 * The owner of `actor`'s workspace (issue 26), whose row holds the plan, billing and branding
 * that staff work under: the actor themself when they own it (no query).
 */
export async function workspaceOwnerOf(db: Knex, actor: User): Promise<User> {
  if (!actor.workspaceId || actor.workspaceId === actor.id) return actor;
  return await User.query(db).findById(actor.workspaceId).throwIfNotFound();
}
