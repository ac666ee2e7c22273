import { SEAT_TIER, SEATS_INCLUDED, type Tier } from "../../shared/tiers";
import { conflict, forbidden, type HttpError, notFound, paymentRequired } from "../errors";
import type { TeamInvite, User } from "../models";
import { hasLiveSubscription } from "./billing";
import { definePolicy } from "./policy";

type Verdict = true | HttpError;
/** The first verdict that is not true, else true. */
const all = (...verdicts: (() => Verdict)[]): Verdict => {
  for (const verdict of verdicts) {
    const result = verdict();
    if (result !== true) return result;
  }
  return true;
};

const managesTeam = (actor: User) =>
  actor.teamRole === "owner" ||
  actor.teamRole === "admin" ||
  forbidden("Only the workspace's owner and admins can manage the team");

/** A person of the actor's own workspace (the query looked there only), else 404. */
const found = (member: User | undefined) =>
  member !== undefined || notFound("Team member not found");

/** What an invite is judged by: the workspace owner's feature tier, and the seats in use. */
export interface SeatCount {
  tier: Tier;
  /** Members plus pending invites, not counting an invite being reissued. */
  taken: number;
  /** Seats bought on top of the plan's (Agency). */
  extra: number;
}

/** The seats a workspace has: its plan's, plus those bought (on Agency only). */
export const seatTotal = (tier: Tier, extra: number) =>
  SEATS_INCLUDED[tier] + (tier === SEAT_TIER ? extra : 0);

/** What joining is judged by: the invite and the joining account's own workspace. */
export interface JoinAttempt {
  invite: TeamInvite;
  /** The account's own workspace has clients or other members. */
  ownWorkspaceInUse: boolean;
}

/**
 * A workspace's people (issue 26). Owner and admins manage the team; members see it. The
 * owner's role and membership are theirs to keep; nobody changes or removes themselves here.
 */
export const teamPolicy = definePolicy({
  listMembers: (actor: User) =>
    actor.workspaceId !== null || forbidden("Only members of a workspace can do that"),
  /** Invites, their list and their withdrawal. */
  manage: managesTeam,
  /** The audit log and its CSV export: the owner and admins, of their own workspace only. */
  viewAudit: (actor: User) =>
    actor.teamRole === "owner" ||
    actor.teamRole === "admin" ||
    forbidden("Only the workspace's owner and admins can see the audit log"),
  invite: (actor: User, tier: Tier) =>
    all(
      () => managesTeam(actor),
      () => SEATS_INCLUDED[tier] > 1 || forbidden("Team members are part of the Agency plan"),
    ),
  takeSeat: (_actor: User, seats: SeatCount) =>
    seats.taken < seatTotal(seats.tier, seats.extra) ||
    paymentRequired("All {{total}} seats are taken: add a seat to invite someone else", {
      total: seatTotal(seats.tier, seats.extra),
    }),
  changeRole: (actor: User, member: User | undefined) =>
    all(
      () => managesTeam(actor),
      () => found(member),
      () => member!.teamRole !== "owner" || forbidden("The workspace's owner keeps the owner role"),
      () => member!.id !== actor.id || forbidden("You cannot change your own role"),
    ),
  /** Handing the workspace over: its owner only, to one of its people. */
  transfer: (actor: User, member: User | undefined) =>
    all(
      () => actor.teamRole === "owner" || forbidden("Only the workspace's owner can hand it over"),
      () => found(member),
      () => member!.id !== actor.id || forbidden("You already own this workspace"),
    ),
  remove: (actor: User, member: User | undefined) =>
    all(
      () => managesTeam(actor),
      () => found(member),
      () => member!.teamRole !== "owner" || forbidden("The workspace's owner cannot be removed"),
      () => member!.id !== actor.id || forbidden("You cannot remove yourself"),
    ),
  join: (actor: User, attempt: JoinAttempt) =>
    all(
      () => actor.role === "owner" || forbidden("Client accounts cannot join a team"),
      () =>
        actor.email.toLowerCase() === attempt.invite.email ||
        forbidden("This invite is for {{email}}: sign in with that address", {
          email: attempt.invite.email,
        }),
      () =>
        actor.workspaceId !== attempt.invite.workspaceId ||
        conflict("You are already in this team"),
      () =>
        actor.workspaceId === actor.id ||
        conflict("You are already in another team: an account can be in one workspace only"),
      () =>
        (!attempt.ownWorkspaceInUse && !hasLiveSubscription(actor)) ||
        conflict(
          "You already run a workspace of your own: an account can be in one workspace only",
        ),
    ),
});
