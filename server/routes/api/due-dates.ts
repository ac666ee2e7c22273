import { msg } from "../../../shared/i18n/msg";
import { readable } from "../../i18n/readable";
import { Router } from "@koa/router";
import { dueDateInput, timeZoneInput } from "../../../shared/schemas/due-dates";
import { changeDueDate } from "../../commands/due-dates";
import { setTimeZone } from "../../commands/set-time-zone";
import { withFeatures } from "../../billing/feature-tier";
import { authenticated, currentUser } from "../../middlewares/authenticated";
import { visibilitiesFor } from "../../policies/conversation-sides";
import { authorizedMessage } from "../../policies/feedback";
import { presentMessage } from "../../presenters/message";
import { presentUser } from "../../presenters/user";
import { personLanguage } from "../../i18n/request-language";
import { loadMessage, loadMessageView } from "../../queries/load-conversation";
import { type AreaRouter, withInput } from "../area-router";

/** Due dates of files sent for approval (issue 27), and the time zone they are read in. */
const router: AreaRouter = new Router();

/**
 * PATCH /api/messages/:messageId/due-date {dueDate: "YYYY-MM-DD" | null}: the staff set or clear
 * the due date of the file thread of that message (any of its versions). 200 with the message;
 * 400 for a bad or past date or a message that asks for no decision; 403 for the client; 404
 * outside the actor's conversations.
 */
router.patch(
  "/api/messages/:messageId/due-date",
  authenticated,
  withInput(dueDateInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    const { client, message } = await authorizedMessage(
      ctx.services,
      actor,
      "changeDueDate",
      ctx.params.messageId,
    );
    await changeDueDate(ctx.services, actor, client, message, input.dueDate);
    const visible = visibilitiesFor(actor.role);
    const row = await loadMessage(ctx.services.db, client.id, message.id, visible);
    ctx.body = presentMessage(row, await loadMessageView(ctx.services.db, actor, client));
  }),
);

/**
 * PUT /api/user/time-zone {timeZone}: the signed-in person's browser reports its IANA zone
 * (the dashboard and the portal, once per load when it differs from the stored one).
 */
router.put(
  "/api/user/time-zone",
  authenticated,
  withInput(timeZoneInput, async (ctx, input) => {
    const user = await setTimeZone(ctx.services.db, currentUser(ctx), input);
    ctx.body = {
      success: true,
      message: readable(ctx, msg("Time zone saved")),
      user: presentUser(
        withFeatures(ctx.services.config, user),
        await personLanguage(ctx, user),
        user.clientId,
      ),
    };
  }),
);

export default router;
