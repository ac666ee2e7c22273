import { Router } from "@koa/router";
import { auditQuery } from "../../../shared/schemas/audit";
import {
  changeTeamRoleInput,
  inviteTeamMemberInput,
  transferOwnershipInput,
} from "../../../shared/schemas/team";
import { teamInviteUrl } from "../../auth/team-invite-tokens";
import { withFeatures } from "../../billing/feature-tier";
import { changeTeamRole } from "../../commands/change-team-role";
import { inviteTeamMember } from "../../commands/invite-team-member";
import { invalidTeamInvite, joinTeam } from "../../commands/join-team";
import { removeTeamMember } from "../../commands/remove-team-member";
import { revokeTeamInvite } from "../../commands/revoke-team-invite";
import { transferOwnership } from "../../commands/transfer-ownership";
import type { AppContext } from "../../context";
import { authenticated, currentUser } from "../../middlewares/authenticated";
import { Client } from "../../models";
import { teamPolicy } from "../../policies/team";
import {
  presentIssuedTeamInvite,
  presentTeamInvite,
  presentTeamInviteLookup,
} from "../../presenters/team-invite";
import { auditCsvHeader, auditCsvLine, presentAuditEntry } from "../../presenters/audit-entry";
import { presentTeamMember } from "../../presenters/team-member";
import { presentUser } from "../../presenters/user";
import { personLanguage } from "../../i18n/request-language";
import { listAllAuditEntries, listAuditEntries } from "../../queries/audit-log";
import { findPendingInvite, listPendingInvites } from "../../queries/team-invites";
import { listTeamMembers } from "../../queries/team-members";
import { hashTeamInviteToken, isWellFormedTeamInviteToken } from "../../auth/team-invite-tokens";
import { LIMITS } from "../../security/rate-limiter";
import { parseOrThrow } from "../../validate";
import { type AreaRouter, withInput } from "../area-router";
import { msg } from "../../../shared/i18n/msg";
import { readable } from "../../i18n/readable";

const router: AreaRouter = new Router({ prefix: "/api/team" });

/** Invite links are looked up and used like clients' ones: within the same budget per IP. */
const limitInvites = (ctx: AppContext) =>
  ctx.services.rateLimiter.consume(`invitePerIp:${ctx.ip}`, LIMITS.invitePerIp);

router.get("/members", authenticated, async (ctx) => {
  const actor = currentUser(ctx);
  teamPolicy.authorize(actor, "listMembers");
  ctx.body = (await listTeamMembers(ctx.services.db, actor.workspaceId!)).map(presentTeamMember);
});

/** Invites an address (owner and admins), or reissues its pending invite. */
router.post(
  "/members",
  authenticated,
  withInput(inviteTeamMemberInput, async (ctx, input) => {
    const { invite, token } = await inviteTeamMember(ctx.services, currentUser(ctx), input);
    ctx.status = 201;
    ctx.body = presentIssuedTeamInvite(invite, {
      inviteUrl: teamInviteUrl(ctx.services.config.appUrl, token),
      inviteToken: token,
    });
  }),
);

router.patch(
  "/members/:id",
  authenticated,
  withInput(changeTeamRoleInput, async (ctx, { role }) => {
    const actor = currentUser(ctx);
    const member = await changeTeamRole(ctx.services, actor, ctx.params.id ?? "", role);
    ctx.body = presentTeamMember(member);
  }),
);

router.post(
  "/owner",
  authenticated,
  withInput(transferOwnershipInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    const owner = await transferOwnership(ctx.services, actor, ctx.state.session, input);
    ctx.body = presentTeamMember(owner);
  }),
);

router.delete("/members/:id", authenticated, async (ctx) => {
  await removeTeamMember(ctx.services, currentUser(ctx), ctx.params.id ?? "");
  ctx.body = { success: true, message: readable(ctx, msg("Removed from the team")) };
});

router.get("/invites", authenticated, async (ctx) => {
  const actor = currentUser(ctx);
  teamPolicy.authorize(actor, "manage");
  const { db, clock } = ctx.services;
  ctx.body = (await listPendingInvites(db, actor.workspaceId!, clock.now())).map(presentTeamInvite);
});

router.delete("/invites/:id", authenticated, async (ctx) => {
  await revokeTeamInvite(ctx.services, currentUser(ctx), ctx.params.id ?? "");
  ctx.body = { success: true, message: readable(ctx, msg("Invite withdrawn")) };
});

/** The workspace's audit log, newest first, a page at a time (owner and admins). */
router.get("/audit", authenticated, async (ctx) => {
  const actor = currentUser(ctx);
  teamPolicy.authorize(actor, "viewAudit");
  const page = parseOrThrow(auditQuery, ctx.query);
  const { rows, nextCursor } = await listAuditEntries(ctx.services.db, actor.workspaceId!, page);
  ctx.body = { entries: rows.map(presentAuditEntry), nextCursor };
});

/** The whole log (400 days at most) as a CSV download, newest first. */
router.get("/audit.csv", authenticated, async (ctx) => {
  const actor = currentUser(ctx);
  teamPolicy.authorize(actor, "viewAudit");
  const rows = await listAllAuditEntries(ctx.services.db, actor.workspaceId!);
  const day = ctx.services.clock.now().toISOString().slice(0, 10);
  ctx.attachment(`audit-log-${day}.csv`);
  ctx.type = "text/csv; charset=utf-8";
  ctx.set("Cache-Control", "no-store");
  // A byte order mark first, so that spreadsheets read the names as UTF-8.
  ctx.body = `\uFEFF${auditCsvHeader()}${rows.map(auditCsvLine).join("")}`;
});

/** Public: what the join page shows for a link, before anyone signs in. */
router.get("/invites/:token", async (ctx) => {
  await limitInvites(ctx);
  const token = ctx.params.token ?? "";
  const { db, clock } = ctx.services;
  const found = isWellFormedTeamInviteToken(token)
    ? await findPendingInvite(db, hashTeamInviteToken(token), clock.now())
    : null;
  if (!found) throw invalidTeamInvite();
  ctx.body = presentTeamInviteLookup(found);
});

/** Joins the signed-in owner-side account to the invite's workspace; answers the user. */
router.post("/invites/:token", authenticated, async (ctx) => {
  await limitInvites(ctx);
  const user = await joinTeam(ctx.services, currentUser(ctx), ctx.params.token ?? "");
  ctx.body = presentUser(
    withFeatures(ctx.services.config, user),
    await personLanguage(ctx, user),
    await Client.idOfUser(ctx.services.db, user),
  );
});

export default router;
