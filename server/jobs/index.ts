import { auditLogRetentionJob } from "./audit-log-retention";
import { idempotencyKeysCleanupJob } from "./idempotency-keys-cleanup";
import { deletedClientsPurgeJob } from "./deleted-clients-purge";
import { desktopSignInCodesCleanupJob } from "./desktop-sign-in-codes-cleanup";
import { domainEventsJob } from "./domain-events";
import { dataExportsJob } from "./data-exports";
import { dueRemindersJob } from "./due-reminders";
import { graceExpiryJob } from "./billing-grace-expiry";
import { feedbackLinksCleanupJob } from "./feedback-links-cleanup";
import type { Job } from "./job";
import { deadMailCleanupJob, mailOutboxJob } from "./mail-outbox";
import { rateLimitsCleanupJob } from "./rate-limits-cleanup";
import { replyMessageIdsCleanupJob } from "./reply-message-ids-cleanup";
import { scheduledMessagesJob } from "./scheduled-messages";
import { storageSweepJob } from "./storage-sweep";
import { unansweredMessagesJob } from "./unanswered-messages";

/** Every background job the server runs; each area adds its own here. */
export const JOBS: Job[] = [
  mailOutboxJob,
  domainEventsJob,
  unansweredMessagesJob,
  dueRemindersJob,
  scheduledMessagesJob,
  graceExpiryJob,
  idempotencyKeysCleanupJob,
  storageSweepJob,
  rateLimitsCleanupJob,
  replyMessageIdsCleanupJob,
  feedbackLinksCleanupJob,
  desktopSignInCodesCleanupJob,
  deadMailCleanupJob,
  auditLogRetentionJob,
  dataExportsJob,
  deletedClientsPurgeJob,
];
