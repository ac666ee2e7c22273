import { z } from "zod";
import { billingModeResponse, subscriptionStatusSchema } from "./billing";
import { clientSchema } from "./clients";
import { newestMessagePageSchema } from "./messages";
import { teamMembersResponse } from "./team";
import { accountTierInfoSchema, userSchema } from "./user";

/** GET /api/dashboard?client={id}: the conversation to open with the dashboard, if any. */
export const dashboardBootstrapQuery = z.strictObject({ client: z.string().optional() });

/**
 * GET /api/dashboard[?client={id}]: what the owner's first screen (the client list, the plan
 * box and banners, and the open conversation) needs, in one answer; each part as its own
 * route answers it: /api/user, /api/clients, /api/billing-mode, /api/user/account-tier,
 * /api/subscription/status, /api/team/members. `conversation` is the named client (as GET /api/clients/{id}) and
 * its newest page of messages (as GET /api/clients/{id}/messages, hasMore its X-Has-More);
 * null when no client is named or it is not one of the owner's.
 */
export const dashboardBootstrapSchema = z.strictObject({
  user: userSchema,
  clients: z.array(clientSchema),
  billingMode: billingModeResponse,
  accountTier: accountTierInfoSchema,
  subscriptionStatus: subscriptionStatusSchema,
  /** The workspace's people, as GET /api/team/members lists them (issue 26). */
  team: teamMembersResponse,
  conversation: z
    .strictObject({ client: clientSchema, messages: newestMessagePageSchema })
    .nullable(),
});
export type DashboardBootstrap = z.infer<typeof dashboardBootstrapSchema>;
