import type { TransferOwnershipInput } from "../../shared/schemas/team";
import { recordAudit } from "../audit/record-audit";
import type { Services } from "../context";
import { type Session, User } from "../models";
import { confirmIdentity } from "../policies/recent-sign-in";
import { teamPolicy } from "../policies/team";
import { findTeamMember } from "../queries/team-members";

/**
 * What is the workspace's, not its owner's own: the plan and its billing (the Stripe customer
 * and subscription: webhooks find the account by its customer), the branding clients see,
 * and how long it keeps deleted clients. The person's own name, address, password, picture and
 * delay stay theirs.
 */
const WORKSPACE_COLUMNS = [
  "companyName",
  "companyLogo",
  "primaryColor",
  "backgroundColor",
  "textColor",
  "accountTier",
  "subscriptionStatus",
  "billingPeriod",
  "subscriptionEndDate",
  "paymentFailureGraceEnd",
  "paymentReminderFor",
  "pausedUntil",
  "stripeCustomerId",
  "stripeSubscriptionId",
  "cancelAtPeriodEnd",
  "cancellationReason",
  "cancellationDetails",
  "cancellationRequestedAt",
  "retentionDiscountCents",
  "retentionDiscountAt",
  "extraSeats",
  "billingSyncedAt",
  // How long deleted clients are kept (issue 28): the workspace's, as its deleted clients are.
  "deletedClientRetentionDays",
] as const satisfies readonly (keyof User)[];

type WorkspaceColumns = Pick<User, (typeof WORKSPACE_COLUMNS)[number]>;

const workspaceColumnsOf = (user: User): WorkspaceColumns =>
  Object.fromEntries(WORKSPACE_COLUMNS.map((column) => [column, user[column]])) as WorkspaceColumns;

/**
 * Hands the workspace to one of its people (issue 26). A workspace is keyed by its owner's
 * user id, so everything keyed by it moves to the new owner's in one transaction: the clients,
 * the team (users.workspace_id), pending invites and the audit log, and the workspace's
 * columns of the owner's row (swapped: the former owner gets the new one's own, a free
 * workspace's). The former owner stays, as an admin. Assignments and reply addresses survive
 * the move (the users_left_workspace trigger would drop them: they are put back). The company
 * logo's file follows its row, so the clients still see it. TeamChanged tells the open pages.
 */
export async function transferOwnership(
  services: Services,
  actor: User,
  session: Session | undefined,
  input: TransferOwnershipInput,
): Promise<User> {
  const from = actor.workspaceId ?? actor.id;
  const target = await findTeamMember(services.db, from, input.userId);
  teamPolicy.authorize(actor, "transfer", target);
  await confirmIdentity(actor, session, input.password, services.clock.now(), "transferOwnership");
  const { owner, recorded } = await services.db.transaction(async (trx) => {
    const [former, next] = await Promise.all([
      User.query(trx).findById(from).forUpdate(),
      User.query(trx).findOne({ id: input.userId, workspaceId: from }).forUpdate(),
    ]);
    // Gone, or no longer the owner's, since the check: as if never there.
    if (former?.teamRole !== "owner" || former.id !== actor.id)
      teamPolicy.authorize(actor, "transfer", undefined);
    if (!next) teamPolicy.authorize(actor, "transfer", undefined);
    const to = next!.id;
    const assignments = await trx("client_assignees")
      .select("clientId", "userId", "isLead", "assignedAt")
      .whereIn("clientId", trx("clients").select("id").where("ownerId", from));
    await trx("clients").update({ ownerId: to }).where("ownerId", from);
    await trx("team_invites").update({ workspaceId: to }).where("workspaceId", from);
    await trx("audit_entries").update({ workspaceId: to }).where("workspaceId", from);
    // The new owner's replies from a workspace of their own before they joined are left
    // behind (issue 28): the team's replies are the workspace's, and titles stay unique.
    await trx("saved_replies").delete().where("workspaceId", to);
    await trx("saved_replies").update({ workspaceId: to }).where("workspaceId", from);
    await trx("users").update({ workspaceId: to }).where("workspaceId", from);
    // What the trigger dropped on the way: the same people still handle the same clients.
    if (assignments.length > 0) {
      await trx("client_assignees").insert(assignments).onConflict(["clientId", "userId"]).ignore();
    }
    // The former owner's columns first: a Stripe customer is on one row at a time.
    await User.query(trx)
      .patch({ ...workspaceColumnsOf(next!), teamRole: "admin" })
      .where("id", from);
    const [owner] = await User.query(trx)
      .patch({ ...workspaceColumnsOf(former!), teamRole: "owner" })
      .where("id", to)
      .returning("*");
    if (former!.companyLogo) {
      await trx("files")
        .update({ uploadedBy: to })
        .where({ storedName: former!.companyLogo, uploadedBy: from })
        .whereNull("clientId");
    }
    await recordAudit(services, trx, {
      workspaceId: to,
      actor,
      action: "workspace.transferred",
      subject: { type: "member", id: to, label: next!.fullName },
    });
    const recorded = await services.events.record(trx, { type: "TeamChanged", workspaceId: to });
    return { owner: owner!, recorded };
  });
  services.events.dispatch(recorded);
  return owner;
}
