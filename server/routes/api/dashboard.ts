import { Router } from "@koa/router";
import {
  type DashboardBootstrap,
  dashboardBootstrapQuery,
} from "../../../shared/schemas/dashboard";
import { withFeatures } from "../../billing/feature-tier";
import { billingProvider } from "../../billing/provider";
import type { Services } from "../../context";
import { authenticated, currentUser } from "../../middlewares/authenticated";
import type { User } from "../../models";
import { accountPolicy } from "../../policies/account";
import { billingPolicy } from "../../policies/billing";
import { clientsPolicy, findClient } from "../../policies/clients";
import { visibilitiesFor } from "../../policies/conversation-sides";
import { presentClient } from "../../presenters/client";
import { presentMessagePage } from "../../presenters/message";
import { presentSubscriptionStatus } from "../../presenters/subscription";
import { presentUser } from "../../presenters/user";
import { personLanguage } from "../../i18n/request-language";
import { loadAccountTier } from "../../queries/account-tier";
import { loadNewestPage } from "../../queries/load-conversation";
import { listClients } from "../../queries/list-clients";
import { listTeamMembers } from "../../queries/team-members";
import { workspaceOwnerOf } from "../../queries/workspace-owner";
import { presentTeamMember } from "../../presenters/team-member";
import { parseOrThrow } from "../../validate";
import type { AreaRouter } from "../area-router";

const router: AreaRouter = new Router({ prefix: "/api/dashboard" });
router.use(authenticated);

/**
 * GET /api/dashboard[?client={id}]: the owner's first screen in one request (on a phone each
 * request is a round trip of 150 ms or more), the same payloads as /api/user, /api/clients,
 * /api/billing-mode, /api/user/account-tier, /api/subscription/status, and for a client of the
 * owner's, /api/clients/{id} and /api/clients/{id}/messages. Any other id (another account's,
 * unknown, malformed) gives no conversation, as if none were named. 401 signed out; 403 for a
 * client user (the portal is theirs).
 */
router.get("/", async (ctx) => {
  const actor = currentUser(ctx);
  clientsPolicy.authorize(actor, "openDashboard");
  accountPolicy.authorize(actor, "readAccountTier");
  billingPolicy.authorize(actor, "readStatus");
  const query = parseOrThrow(dashboardBootstrapQuery, ctx.query);
  const { services } = ctx;
  const [clients, accountTier, conversation, team, workspaceOwner] = await Promise.all([
    listClients(services, actor),
    loadAccountTier(services, actor),
    openConversation(services, actor, query.client),
    listTeamMembers(services.db, actor.workspaceId ?? actor.id),
    workspaceOwnerOf(services.db, actor),
  ]);
  const presented = clients.map(presentClient);
  // The list's entry: the same query GET /api/clients/{id} makes for its owner (absent only
  // when the client was deleted in between).
  const openClient =
    conversation && presented.find((client) => client.id === conversation.clientId);
  ctx.body = {
    user: presentUser(withFeatures(services.config, actor), await personLanguage(ctx, actor)),
    clients: presented,
    billingMode: { mode: services.config.billingMode },
    accountTier,
    subscriptionStatus: presentSubscriptionStatus(
      workspaceOwner,
      billingProvider(services).testMode,
    ),
    team: team.map(presentTeamMember),
    conversation:
      conversation && openClient ? { client: openClient, messages: conversation.messages } : null,
  } satisfies DashboardBootstrap;
});

/** The named conversation's newest page when it is one of the owner's; else null. */
async function openConversation(services: Services, owner: User, clientId: string | undefined) {
  const client = await findClient(services, clientId);
  if (!client || !clientsPolicy.can(owner, "openInDashboard", client)) return null;
  const { page, view } = await loadNewestPage(
    services.db,
    owner,
    client,
    visibilitiesFor(owner.role),
  );
  return { clientId: client.id, messages: presentMessagePage(page, view) };
}

export default router;
