import { badRequest } from "../errors";
import type { User } from "../models";
import { type EndpointGuardOptions, isAllowedPushEndpoint } from "../push/endpoint-guard";
import { definePolicy } from "./policy";

/**
 * Web push on a user's own browsers: owners (dashboard) and clients (portal) alike. A push
 * endpoint must be one the server may POST to (server/push/endpoint-guard.ts).
 */
export const pushPolicy = definePolicy({
  subscribe: (_actor: User, subject: { endpoint: string; guard: EndpointGuardOptions }) =>
    isAllowedPushEndpoint(subject.endpoint, subject.guard) ||
    badRequest("Endpoint must be an https address of a push service"),
  unsubscribe: (_actor: User) => true,
});
