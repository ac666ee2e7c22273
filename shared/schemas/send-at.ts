import { z } from "zod";
import { SCHEDULE_MESSAGES } from "../schedule-limits";

export { SCHEDULE_MAX_AHEAD_MS, SCHEDULE_MESSAGES, SCHEDULE_MIN_LEAD_MS } from "../schedule-limits";

/** Scheduled send (issue 28, point 2): when a message is to be sent. */

/**
 * When to send: an ISO 8601 date-time with its offset (or Z). Whether it is far enough ahead
 * depends on the server's clock: the command checks it (server/commands/scheduled-messages.ts).
 */
export const sendAtSchema = z
  .string({ error: SCHEDULE_MESSAGES.format })
  .pipe(z.iso.datetime({ offset: true, error: SCHEDULE_MESSAGES.format }));
