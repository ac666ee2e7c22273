import type { Knex } from "knex";
import type { QueryBuilder } from "objection";
import { TeamInvite, User } from "../models";

/** A pending invite with the name of who sent it (null once their account is gone). */
export type ListedTeamInvite = TeamInvite & { invitedByName: string | null };

/** Invites that can still be used: not accepted, not withdrawn, not expired. */
export const pendingInvites =
  (now: Date) =>
  <R>(query: QueryBuilder<TeamInvite, R>) =>
    query
      .whereNull("teamInvites.acceptedAt")
      .whereNull("teamInvites.revokedAt")
      .where("teamInvites.expiresAt", ">", now);

/** The workspace's pending invites, newest first. */
export async function listPendingInvites(
  db: Knex,
  workspaceId: string,
  now: Date,
): Promise<ListedTeamInvite[]> {
  return (await TeamInvite.query(db)
    .leftJoin("users as inviter", "inviter.id", "teamInvites.invitedBy")
    .select("teamInvites.*", "inviter.fullName as invitedByName")
    .where("teamInvites.workspaceId", workspaceId)
    .modify(pendingInvites(now))
    .orderBy("teamInvites.createdAt", "desc")
    .orderBy("teamInvites.id")) as ListedTeamInvite[];
}

/** People in the workspace (the owner included) and its pending invites: what holds a seat. */
export async function seatUsage(
  db: Knex,
  workspaceId: string,
  now: Date,
): Promise<{ members: number; pending: number }> {
  const [members, pending] = await Promise.all([
    User.query(db).where("workspaceId", workspaceId).resultSize(),
    TeamInvite.query(db)
      .where("teamInvites.workspaceId", workspaceId)
      .modify(pendingInvites(now))
      .resultSize(),
  ]);
  return { members, pending };
}

/** People in the workspace plus its pending invites: the seats in use. */
export async function seatsTaken(db: Knex, workspaceId: string, now: Date): Promise<number> {
  const { members, pending } = await seatUsage(db, workspaceId, now);
  return members + pending;
}

/** A pending invite by its token's hash, with the workspace's owner and whoever sent it. */
export async function findPendingInvite(
  db: Knex,
  tokenHash: string,
  now: Date,
): Promise<{ invite: TeamInvite; owner: User; inviter: User | undefined } | null> {
  const invite = await TeamInvite.query(db).findOne({ tokenHash }).modify(pendingInvites(now));
  if (!invite) return null;
  const [owner, inviter] = await Promise.all([
    User.query(db).findById(invite.workspaceId),
    invite.invitedBy ? User.query(db).findById(invite.invitedBy) : undefined,
  ]);
  return owner ? { invite, owner, inviter } : null;
}
