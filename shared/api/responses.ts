import { z } from "zod";
import { annotationSchema } from "../schemas/annotations";
import { auditPageSchema } from "../schemas/audit";
import { googleAvailableResponse, registerResponse } from "../schemas/auth";
import { portalBrandingSchema } from "../schemas/branding";
import {
  billingActionResponse,
  billingModeResponse,
  checkoutResponse,
  paymentMethodResponse,
  stripeWebhookResponse,
  subscriptionStatusSchema,
} from "../schemas/billing";
import {
  acceptInviteResponse,
  addClientResponse,
  clientAssigneesResponse,
  clientSchema,
  inviteLinkResponse,
  resolveShortLinkResponse,
  shortLinkResponse,
} from "../schemas/clients";
import { errorResponseSchema, successResponseSchema } from "../schemas/common";
import { deletedClientSchema, retentionSchema } from "../schemas/deleted-clients";
import {
  clientLanguageResponse,
  userLanguageResponse,
  workspaceLanguageResponse,
} from "../schemas/language";
import { addedContactSchema, contactSchema } from "../schemas/contacts";
import { feedbackLinkSchema, useFeedbackLinkResponse } from "../schemas/feedback-links";
import { messageSchema } from "../schemas/messages";
import { messageEditsSchema } from "../schemas/message-changes";
import { portalBootstrapSchema } from "../schemas/portal";
import { scheduledMessageSchema } from "../schemas/scheduled-messages";
import { dashboardBootstrapSchema } from "../schemas/dashboard";
import {
  filledSavedReplySchema,
  savedRepliesResponse,
  savedReplySchema,
} from "../schemas/saved-replies";
import { searchResponseSchema } from "../schemas/search";
import { changeSeatsResponse, seatsSchema } from "../schemas/seats";
import {
  issuedTeamInviteSchema,
  teamInviteLookupSchema,
  teamInvitesResponse,
  teamMemberSchema,
  teamMembersResponse,
} from "../schemas/team";
import { pushPublicKeyResponse } from "../schemas/push";
import {
  accountTierInfoSchema,
  signOutEverywhereResponse,
  userChangedResponse,
  userSchema,
} from "../schemas/user";

/** A route as the server registers it: method and path pattern, e.g. `GET /api/clients/:id`. */
export type ApiRouteKey = `${"GET" | "POST" | "PUT" | "PATCH" | "DELETE"} /api/${string}`;

/** The answer of a route that sends file bytes rather than JSON (its errors are still JSON). */
export const FILE_ANSWER = "file";

/**
 * What each API route answers on success. Errors of every route are `errorResponseSchema`.
 * The API tests parse every answer against this table (tests/support/api-contract.ts), and a
 * test fails when the server registers an /api/ route missing here.
 */
export const API_RESPONSES = {
  // Accounts and sign-in
  "POST /api/register": registerResponse,
  "POST /api/login": userSchema,
  "POST /api/logout": successResponseSchema,
  "GET /api/user": userSchema,
  // A workspace's team (issue 26)
  "GET /api/team/members": teamMembersResponse,
  "POST /api/team/members": issuedTeamInviteSchema,
  "PATCH /api/team/members/:id": teamMemberSchema,
  "DELETE /api/team/members/:id": successResponseSchema,
  "POST /api/team/owner": teamMemberSchema,
  "GET /api/team/invites": teamInvitesResponse,
  "GET /api/team/audit": auditPageSchema,
  "GET /api/team/audit.csv": FILE_ANSWER,
  "DELETE /api/team/invites/:id": successResponseSchema,
  "GET /api/team/invites/:token": teamInviteLookupSchema,
  "POST /api/team/invites/:token": userSchema,
  "POST /api/verify-email": userChangedResponse,
  "POST /api/resend-verification": successResponseSchema,
  "POST /api/forgot-password": successResponseSchema,
  "POST /api/reset-password": successResponseSchema,
  "GET /api/auth/google-available": googleAvailableResponse,
  "POST /api/auth/desktop/exchange": userSchema,
  // The signed-in user's settings
  "PATCH /api/user/profile": userChangedResponse,
  "PATCH /api/user/password": successResponseSchema,
  "PATCH /api/user/notification-settings": userChangedResponse,
  "PATCH /api/user/color-scheme": userChangedResponse,
  "POST /api/user/delete": successResponseSchema,
  "POST /api/user/sign-out-everywhere": signOutEverywhereResponse,
  "GET /api/user/account-tier": accountTierInfoSchema,
  "POST /api/user/profile-picture": userChangedResponse,
  "POST /api/user/company-logo": userChangedResponse,
  // Clients and invites
  "GET /api/clients": z.array(clientSchema),
  "POST /api/clients": addClientResponse,
  "GET /api/clients/deleted": z.array(deletedClientSchema),
  "POST /api/clients/:id/restore": clientSchema,
  "GET /api/workspace/retention": retentionSchema,
  // Languages (issue 29)
  "PATCH /api/user/language": userLanguageResponse,
  "GET /api/workspace/language": workspaceLanguageResponse,
  "PATCH /api/workspace/language": workspaceLanguageResponse,
  "PATCH /api/clients/:id/language": clientLanguageResponse,
  "PATCH /api/workspace/retention": retentionSchema,
  "GET /api/clients/:id": clientSchema,
  "DELETE /api/clients/:id": successResponseSchema,
  "GET /api/clients/:id/assignees": clientAssigneesResponse,
  "PUT /api/clients/:id/assignees": clientAssigneesResponse,
  "GET /api/clients/:id/contacts": z.array(contactSchema),
  "POST /api/clients/:id/contacts": addedContactSchema,
  "DELETE /api/clients/:id/contacts/:contactId": successResponseSchema,
  "PATCH /api/clients/:id/notification-settings": successResponseSchema,
  "POST /api/clients/:id/invite": inviteLinkResponse,
  "POST /api/clients/:id/short-link": shortLinkResponse,
  "GET /api/short-link/:code": resolveShortLinkResponse,
  "POST /api/invite/:token": acceptInviteResponse,
  "POST /api/client-sign-in-link": successResponseSchema,
  "POST /api/client-sign-in": acceptInviteResponse,
  "GET /api/portal-branding": portalBrandingSchema,
  "GET /api/portal-branding/logo/:filename": FILE_ANSWER,
  // Conversations
  "GET /api/clients/:id/messages": z.array(messageSchema),
  "GET /api/portal/:clientId": portalBootstrapSchema,
  "GET /api/dashboard": dashboardBootstrapSchema,
  // With sendAt (issue 28), the scheduled message.
  "POST /api/clients/:id/messages": z.union([messageSchema, scheduledMessageSchema]),
  "POST /api/clients/:id/read": successResponseSchema,
  "POST /api/clients/:id/upload": messageSchema,
  "GET /api/clients/:id/attachments": z.array(messageSchema),
  "PATCH /api/messages/:messageId/feedback": messageSchema,
  "GET /api/feedback-links/:token": feedbackLinkSchema,
  "POST /api/feedback-links/:token": useFeedbackLinkResponse,
  "POST /api/messages/:messageId/versions": messageSchema,
  "GET /api/messages/:messageId/versions": z.array(messageSchema),
  "GET /api/messages/:messageId/approval-record": FILE_ANSWER,
  "GET /api/messages/:messageId/versions/:version/annotations": z.array(annotationSchema),
  "POST /api/messages/:messageId/versions/:version/annotations": annotationSchema,
  "POST /api/annotations/:id/replies": annotationSchema,
  "PATCH /api/annotations/:id": annotationSchema,
  "PATCH /api/messages/:messageId/due-date": messageSchema,
  // Scheduled send (issue 28): PATCH and DELETE of a scheduled message's id.
  "GET /api/clients/:id/scheduled": z.array(scheduledMessageSchema),
  // The same paths edit and delete a sent message (its own author, for 15 minutes).
  "PATCH /api/messages/:id": z.union([messageSchema, scheduledMessageSchema]),
  "DELETE /api/messages/:id": z.union([messageSchema, successResponseSchema]),
  "POST /api/messages/:id/send-now": messageSchema,
  "GET /api/messages/:id/edits": messageEditsSchema,
  "PUT /api/user/time-zone": userChangedResponse,
  "GET /api/download/:filename": FILE_ANSWER,
  "GET /api/download/:filename/preview": FILE_ANSWER,
  // Exports (issue 28): the ZIP, or 202 exportQueuedResponse when it is mailed as a link
  "GET /api/clients/:id/export": FILE_ANSWER,
  "GET /api/export": FILE_ANSWER,
  "GET /api/portal/export": FILE_ANSWER,
  "GET /api/exports/:token": FILE_ANSWER,
  // Billing
  "GET /api/billing-mode": billingModeResponse,
  "GET /api/subscription/status": subscriptionStatusSchema,
  "GET /api/subscription/seats": seatsSchema,
  "PUT /api/subscription/seats": changeSeatsResponse,
  "POST /api/subscription/create-checkout": checkoutResponse,
  "POST /api/subscription/change-plan": billingActionResponse,
  "POST /api/subscription/payment-method": paymentMethodResponse,
  "POST /api/subscription/start-cancellation": billingActionResponse,
  "POST /api/subscription/apply-discount": billingActionResponse,
  "POST /api/subscription/pause-account": billingActionResponse,
  "POST /api/subscription/complete-cancellation": billingActionResponse,
  "POST /api/subscription/keep-account": billingActionResponse,
  "POST /api/stripe/webhook": stripeWebhookResponse,
  // Search
  "GET /api/search": searchResponseSchema,
  // Saved replies (issue 28); DELETE answers 204 without a body
  "GET /api/saved-replies": savedRepliesResponse,
  "POST /api/saved-replies": savedReplySchema,
  "PATCH /api/saved-replies/:id": savedReplySchema,
  "DELETE /api/saved-replies/:id": z.null(),
  "POST /api/saved-replies/:id/fill": filledSavedReplySchema,
  // Web push (Settings, notifications on this device)
  "GET /api/push/public-key": pushPublicKeyResponse,
  "POST /api/push/subscriptions": successResponseSchema,
  "DELETE /api/push/subscriptions": successResponseSchema,
} as const satisfies Record<ApiRouteKey, z.ZodType | typeof FILE_ANSWER>;

export type ApiRoute = keyof typeof API_RESPONSES;

/** Every error answer of the API. */
export const API_ERROR_RESPONSE = errorResponseSchema;
