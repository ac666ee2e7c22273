import { Router } from "@koa/router";
import { addContactInput } from "../../../shared/schemas/contacts";
import { inviteUrl } from "../../auth/invite-tokens";
import { addContact } from "../../commands/add-contact";
import { removeContact } from "../../commands/remove-contact";
import { authenticated, currentUser } from "../../middlewares/authenticated";
import { authorizedClient } from "../../policies/clients";
import { presentAddedContact, presentContact } from "../../presenters/contact";
import { listContacts } from "../../queries/list-contacts";
import { LIMITS } from "../../security/rate-limiter";
import { type AreaRouter, withInput } from "../area-router";
import { msg } from "../../../shared/i18n/msg";
import { readable } from "../../i18n/readable";

/** A client's people (issue 26): the client itself first, then the contacts its staff invited. */
const router: AreaRouter = new Router({ prefix: "/api/clients/:id/contacts" });
router.use(authenticated);

router.get("/", async (ctx) => {
  const actor = currentUser(ctx);
  const client = await authorizedClient(ctx.services, actor, "listContacts", ctx.params.id);
  ctx.body = (await listContacts(ctx.services.db, client)).map(presentContact);
});

router.post(
  "/",
  withInput(addContactInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    const client = await authorizedClient(ctx.services, actor, "manageContacts", ctx.params.id);
    if (input.sendInviteEmail)
      await ctx.services.rateLimiter.consume(
        `mailPerAddress:${input.email}`,
        LIMITS.mailPerAddress,
      );
    const added = await addContact(ctx.services, actor, client, input);
    ctx.status = 201;
    ctx.body = presentAddedContact(added.contact, {
      inviteUrl: inviteUrl(ctx.services.config.appUrl, added.token),
      inviteToken: added.token,
    });
  }),
);

router.delete("/:contactId", async (ctx) => {
  const actor = currentUser(ctx);
  const client = await authorizedClient(ctx.services, actor, "manageContacts", ctx.params.id);
  await removeContact(ctx.services, actor, client, ctx.params.contactId ?? "");
  ctx.body = { success: true, message: readable(ctx, msg("Contact removed")) };
});

export default router;
