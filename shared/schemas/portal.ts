import { z } from "zod";
import { clientSchema } from "./clients";
import { newestMessagePageSchema } from "./messages";
import { userSchema } from "./user";

/**
 * GET /api/portal/{clientId}: what the client portal's first screen needs, in one answer
 * (on a phone each request is a round trip of 150 ms or more): the signed-in client, their
 * conversation as GET /api/clients/{id} has it, and its newest page of messages as
 * GET /api/clients/{id}/messages has it (oldest to newest; hasMore is that answer's X-Has-More).
 */
export const portalBootstrapSchema = z.strictObject({
  user: userSchema,
  client: clientSchema,
  messages: newestMessagePageSchema,
});
export type PortalBootstrap = z.infer<typeof portalBootstrapSchema>;
