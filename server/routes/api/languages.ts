import { Router } from "@koa/router";
import {
  clientLanguageRequestSchema,
  userLanguageRequestSchema,
  workspaceLanguageRequestSchema,
} from "../../../shared/schemas/language";
import {
  setClientLanguage,
  setUserLanguage,
  setWorkspaceLanguage,
} from "../../commands/set-language";
import { authenticated, currentUser } from "../../middlewares/authenticated";
import { authorizedClient } from "../../policies/clients";
import { languagesPolicy } from "../../policies/languages";
import { workspaceLanguageOf } from "../../queries/workspace-language";
import { type AreaRouter, withInput } from "../area-router";

/** Issue 29: a person's, a workspace's and a client's language. */
const router: AreaRouter = new Router({ prefix: "/api" });

/** PATCH /api/user/language {language}: the signed-in person's own (staff or contact). */
router.patch(
  "/user/language",
  authenticated,
  withInput(userLanguageRequestSchema, async (ctx, input) => {
    const actor = currentUser(ctx);
    languagesPolicy.authorize(actor, "setOwn");
    const language = await setUserLanguage(ctx.services.db, actor, input.language);
    ctx.state.language = language;
    ctx.body = { language };
  }),
);

/** GET /api/workspace/language: what new clients are invited in. */
router.get("/workspace/language", authenticated, async (ctx) => {
  const actor = currentUser(ctx);
  languagesPolicy.authorize(actor, "readWorkspace");
  ctx.body = { language: await workspaceLanguageOf(ctx.services.db, actor) };
});

/** PATCH /api/workspace/language {language}: its owner and admins set it. */
router.patch(
  "/workspace/language",
  authenticated,
  withInput(workspaceLanguageRequestSchema, async (ctx, input) => {
    const actor = currentUser(ctx);
    languagesPolicy.authorize(actor, "setWorkspace");
    ctx.body = { language: await setWorkspaceLanguage(ctx.services.db, actor, input.language) };
  }),
);

/** PATCH /api/clients/{id}/language {language}: the client's invite language (null: the workspace's). */
router.patch(
  "/clients/:id/language",
  authenticated,
  withInput(clientLanguageRequestSchema, async (ctx, input) => {
    const actor = currentUser(ctx);
    const client = await authorizedClient(ctx.services, actor, "setLanguage", ctx.params.id);
    ctx.body = { language: await setClientLanguage(ctx.services.db, client, input.language) };
  }),
);

export default router;
