import type { Knex } from "knex";
import * as initial from "./20261122000000_initial";
import * as fileVersions from "./20261122010000_file_versions";
import * as billing from "./20261122030000_billing";
import * as idempotencyKeys from "./20261123040000_idempotency_keys";
import * as rateLimits from "./20261125010000_rate_limits";
import * as spentInviteTokens from "./20261125170000_spent_invite_tokens";
import * as replyAddresses from "./20261126010000_reply_addresses";
import * as feedbackEmailLinks from "./20261126020000_feedback_email_links";
import * as pushSubscriptions from "./20261126030000_push_subscriptions";
import * as messageSearch from "./20261126040000_message_search";
import * as desktopSignInCodes from "./20261126050000_desktop_sign_in_codes";
import * as mailOutbox from "./20261126060000_mail_outbox";
import * as resendableCodes from "./20261126070000_resendable_codes";
import * as paymentReminders from "./20261126080000_payment_reminders";
import * as events from "./20261128000000_events";
import * as socketInstances from "./20261129010000_socket_instances";
import * as cachedRowsNotify from "./20261129020000_cached_rows_notify";
import * as workspaces from "./20261129030000_workspaces";
import * as teamInvites from "./20261129040000_team_invites";
import * as clientAssignees from "./20261129050000_client_assignees";
import * as internalNotes from "./20261129060000_internal_notes";
import * as auditLog from "./20261129070000_audit_log";
import * as teamSeats from "./20261129080000_team_seats";
import * as notificationRecipients from "./20261129090000_notification_recipients";
import * as clientContacts from "./20261129100000_client_contacts";
import * as annotations from "./20261130010000_annotations";
import * as dueDates from "./20261130020000_due_dates";
import * as approvers from "./20261130030000_approvers";
import * as savedReplies from "./20261201010000_saved_replies";
import * as scheduledMessages from "./20261201020000_scheduled_messages";
import * as messageEdits from "./20261201030000_message_edits";
import * as deletedClients from "./20261201040000_deleted_clients";
import * as dataExports from "./20261205000000_data_exports";
import * as languages from "./20261207000000_languages";

export const migrations: Record<string, Knex.Migration> = {
  "20261122000000_initial": initial,
  "20261122010000_file_versions": fileVersions,
  "20261122030000_billing": billing,
  "20261123040000_idempotency_keys": idempotencyKeys,
  "20261125010000_rate_limits": rateLimits,
  "20261125170000_spent_invite_tokens": spentInviteTokens,
  "20261126010000_reply_addresses": replyAddresses,
  "20261126020000_feedback_email_links": feedbackEmailLinks,
  "20261126030000_push_subscriptions": pushSubscriptions,
  "20261126040000_message_search": messageSearch,
  "20261126050000_desktop_sign_in_codes": desktopSignInCodes,
  "20261126060000_mail_outbox": mailOutbox,
  "20261126070000_resendable_codes": resendableCodes,
  "20261126080000_payment_reminders": paymentReminders,
  "20261128000000_events": events,
  "20261129010000_socket_instances": socketInstances,
  "20261129020000_cached_rows_notify": cachedRowsNotify,
  "20261129030000_workspaces": workspaces,
  "20261129040000_team_invites": teamInvites,
  "20261129050000_client_assignees": clientAssignees,
  "20261129060000_internal_notes": internalNotes,
  "20261129070000_audit_log": auditLog,
  "20261129080000_team_seats": teamSeats,
  "20261129090000_notification_recipients": notificationRecipients,
  "20261129100000_client_contacts": clientContacts,
  "20261130010000_annotations": annotations,
  "20261130020000_due_dates": dueDates,
  "20261130030000_approvers": approvers,
  "20261201010000_saved_replies": savedReplies,
  "20261201020000_scheduled_messages": scheduledMessages,
  "20261201030000_message_edits": messageEdits,
  "20261201040000_deleted_clients": deletedClients,
  "20261205000000_data_exports": dataExports,
  "20261207000000_languages": languages,
};
