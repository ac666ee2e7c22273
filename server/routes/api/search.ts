import { Router } from "@koa/router";
import { searchQuery } from "../../../shared/schemas/search";
import { searchMessages } from "../../queries/search-messages";
import { authenticated, currentUser } from "../../middlewares/authenticated";
import { authorizedSearchScope } from "../../policies/search";
import { presentSearchPage } from "../../presenters/search-result";
import type { AreaRouter } from "../area-router";
import { parseOrThrow } from "../../validate";

const router: AreaRouter = new Router({ prefix: "/api/search" });
router.use(authenticated);

/**
 * Messages and file names matching q: an owner's conversations (or the one named by
 * clientId), a client's own conversation. Newest first; `before` = the last page's nextCursor.
 */
router.get("/", async (ctx) => {
  const actor = currentUser(ctx);
  const query = parseOrThrow(searchQuery, ctx.query);
  const scope = await authorizedSearchScope(ctx.services, actor, query.clientId);
  const { hits, hasMore } = await searchMessages(ctx.services.db, scope, query);
  ctx.body = presentSearchPage(hits, hasMore, query.q, actor.role);
});

export default router;
