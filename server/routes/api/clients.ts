import { Router } from "@koa/router";
import {
  type AddClientResponse,
  addClientInput,
  clientAssigneesInput,
  clientNotificationSettingsInput,
} from "../../../shared/schemas/clients";
import { inviteUrl, shortInviteUrl } from "../../auth/invite-tokens";
import { addClient } from "../../commands/add-client";
import { deleteClient } from "../../commands/delete-client";
import { setClientAssignees } from "../../commands/set-client-assignees";
import { listClients, loadClient } from "../../queries/list-clients";
import { updateClientNotificationSettings } from "../../commands/update-client-settings";
import { authenticated, currentUser } from "../../middlewares/authenticated";
import { authorizedClient, clientsPolicy } from "../../policies/clients";
import { presentAssignees, presentClient } from "../../presenters/client";
import { LIMITS } from "../../security/rate-limiter";
import { type AreaRouter, withInput } from "../area-router";
import { msg } from "../../../shared/i18n/msg";
import { readable } from "../../i18n/readable";

const router: AreaRouter = new Router({ prefix: "/api/clients" });
router.use(authenticated);

router.get("/", async (ctx) => {
  const actor = currentUser(ctx);
  clientsPolicy.authorize(actor, "list");
  ctx.body = (await listClients(ctx.services, actor)).map(presentClient);
});

router.post(
  "/",
  withInput(addClientInput, async (ctx, body) => {
    const actor = currentUser(ctx);
    clientsPolicy.authorize(actor, "create");
    if (body.sendInviteEmail)
      await ctx.services.rateLimiter.consume(`mailPerAddress:${body.email}`, LIMITS.mailPerAddress);
    const added = await addClient(ctx.services, actor, body);
    const { appUrl } = ctx.services.config;
    ctx.status = 201;
    ctx.body = {
      id: added.client.id,
      name: added.client.name,
      email: added.client.email,
      inviteUrl: inviteUrl(appUrl, added.token),
      shortInviteUrl: added.shortCode ? shortInviteUrl(appUrl, added.shortCode) : null,
      inviteToken: added.token,
      inviteEmailSent: added.inviteEmailed,
    } satisfies AddClientResponse;
  }),
);

router.get("/:id", async (ctx) => {
  const actor = currentUser(ctx);
  const client = await authorizedClient(ctx.services, actor, "read", ctx.params.id);
  ctx.body = presentClient(await loadClient(ctx.services, actor, client));
});

router.delete("/:id", async (ctx) => {
  const actor = currentUser(ctx);
  const client = await authorizedClient(ctx.services, actor, "delete", ctx.params.id);
  await deleteClient(ctx.services, actor, client);
  ctx.body = { success: true, message: readable(ctx, msg("Client deleted successfully")) };
});

router.get("/:id/assignees", async (ctx) => {
  const actor = currentUser(ctx);
  const client = await authorizedClient(ctx.services, actor, "readAssignees", ctx.params.id);
  ctx.body = presentAssignees(client);
});

router.put(
  "/:id/assignees",
  withInput(clientAssigneesInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    const client = await authorizedClient(ctx.services, actor, "assign", ctx.params.id);
    ctx.body = await setClientAssignees(ctx.services, actor, client, input);
  }),
);

router.patch(
  "/:id/notification-settings",
  withInput(clientNotificationSettingsInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    const client = await authorizedClient(
      ctx.services,
      actor,
      "updateNotificationSettings",
      ctx.params.id,
    );
    await updateClientNotificationSettings(ctx.services.db, actor, client, input);
    ctx.body = { success: true, message: readable(ctx, msg("Settings updated")) };
  }),
);

export default router;
