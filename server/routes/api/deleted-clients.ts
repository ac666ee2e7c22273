import { Router } from "@koa/router";
import { retentionInput } from "../../../shared/schemas/deleted-clients";
import { restoreClient } from "../../commands/restore-client";
import { setClientRetention } from "../../commands/set-client-retention";
import { authenticated, currentUser } from "../../middlewares/authenticated";
import { clientsPolicy } from "../../policies/clients";
import { presentClient } from "../../presenters/client";
import { presentDeletedClient } from "../../presenters/deleted-client";
import { listDeletedClients, retentionDaysOf } from "../../queries/deleted-clients";
import { loadClient } from "../../queries/list-clients";
import { type AreaRouter, withInput } from "../area-router";

/**
 * Deleted clients and how long they are kept (issue 28). Mounted before the clients area, whose
 * `GET /api/clients/:id` would otherwise take `/api/clients/deleted`.
 */
const router: AreaRouter = new Router();

const workspaceOf = (actor: { id: string; workspaceId: string | null }) =>
  actor.workspaceId ?? actor.id;

router.get("/api/clients/deleted", authenticated, async (ctx) => {
  const actor = currentUser(ctx);
  clientsPolicy.authorize(actor, "manageDeleted");
  const { db, clock } = ctx.services;
  ctx.body = (await listDeletedClients(db, workspaceOf(actor), clock.now())).map(
    presentDeletedClient,
  );
});

router.post("/api/clients/:id/restore", authenticated, async (ctx) => {
  const actor = currentUser(ctx);
  clientsPolicy.authorize(actor, "manageDeleted");
  const client = await restoreClient(ctx.services, actor, ctx.params.id);
  ctx.body = presentClient(await loadClient(ctx.services, actor, client));
});

router.get("/api/workspace/retention", authenticated, async (ctx) => {
  const actor = currentUser(ctx);
  clientsPolicy.authorize(actor, "readRetention");
  ctx.body = { days: await retentionDaysOf(ctx.services.db, workspaceOf(actor)) };
});

router.patch(
  "/api/workspace/retention",
  authenticated,
  withInput(retentionInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    clientsPolicy.authorize(actor, "manageDeleted");
    ctx.body = { days: await setClientRetention(ctx.services, actor, input) };
  }),
);

export default router;
