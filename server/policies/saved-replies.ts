import { forbidden, type HttpError, notFound } from "../errors";
import type { Client, SavedReply, User } from "../models";
import { isStaffOf, seesEveryClient } from "./conversation-sides";
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

/** The workspace's staff; a client's people get 403, as at the team's routes. */
const staff = (actor: User) =>
  (actor.role === "owner" && actor.workspaceId !== null) ||
  forbidden("Saved replies are for the workspace's team");

/**
 * Saved replies (issue 28) belong to a workspace. All its staff use them and add to them;
 * a reply is edited and deleted by who wrote it, or by the owner and admins (who keep the
 * workspace's wording). Another workspace's reply answers 404.
 */
export const savedRepliesPolicy = definePolicy({
  /** List, create and fill. */
  use: (actor: User) => staff(actor),
  /** `reply` as found in the actor's own workspace (the query looked there only). */
  change: (actor: User, reply: SavedReply | undefined) =>
    all(
      () => staff(actor),
      () => reply !== undefined || notFound("Saved reply not found"),
      () =>
        reply!.createdBy === actor.id ||
        seesEveryClient(actor) ||
        forbidden(
          "Only who wrote this saved reply, or the workspace's owner and admins, can change it",
        ),
    ),
  /** Filling a reply for a conversation: only for the staff who have that client, else 404. */
  fillFor: (actor: User, client: Client | undefined) =>
    (client !== undefined && isStaffOf(actor, client)) || notFound("Client not found"),
});
