import { Router } from "@koa/router";
import type { PortalBootstrap } from "../../../shared/schemas/portal";
import { withFeatures } from "../../billing/feature-tier";
import { loadNewestPage } from "../../queries/load-conversation";
import { loadClient } from "../../queries/list-clients";
import { authenticated, currentUser } from "../../middlewares/authenticated";
import { authorizedClient } from "../../policies/clients";
import { visibilitiesFor } from "../../policies/conversation-sides";
import { presentClient } from "../../presenters/client";
import { presentMessagePage } from "../../presenters/message";
import { presentUser } from "../../presenters/user";
import { personLanguage } from "../../i18n/request-language";
import type { AreaRouter } from "../area-router";

const router: AreaRouter = new Router({ prefix: "/api/portal" });
router.use(authenticated);

/**
 * GET /api/portal/{clientId}: the client portal's first screen in one request (the user,
 * the conversation, its newest page of messages), the same payloads as /api/user,
 * /api/clients/{id} and /api/clients/{id}/messages. 401 signed out; 404 for any conversation
 * but the client's own; 403 for its owner (owners use the dashboard).
 */
router.get("/:clientId", async (ctx) => {
  const actor = currentUser(ctx);
  const { db } = ctx.services;
  const client = await authorizedClient(ctx.services, actor, "openPortal", ctx.params.clientId);
  const [details, { page, view }] = await Promise.all([
    loadClient(ctx.services, actor, client),
    loadNewestPage(db, actor, client, visibilitiesFor(actor.role)),
  ]);
  ctx.body = {
    user: presentUser(
      withFeatures(ctx.services.config, actor),
      await personLanguage(ctx, actor),
      client.id,
    ),
    client: presentClient(details),
    messages: presentMessagePage(page, view),
  } satisfies PortalBootstrap;
});

export default router;
