import { Router } from "@koa/router";
import { authenticated, currentUser } from "../../middlewares/authenticated";
import { teamPolicy } from "../../policies/team";
import { presentTeamMember } from "../../presenters/team-member";
import { listTeamMembers } from "../../queries/team-members";
import type { AreaRouter } from "../area-router";

const router: AreaRouter = new Router({ prefix: "/api/team" });
router.use(authenticated);

router.get("/members", async (ctx) => {
  const actor = currentUser(ctx);
  teamPolicy.authorize(actor, "listMembers");
  ctx.body = (await listTeamMembers(ctx.services.db, actor.workspaceId!)).map(presentTeamMember);
});

export default router;
