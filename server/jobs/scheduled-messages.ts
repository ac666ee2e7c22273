import { sendDueScheduledMessages } from "../commands/scheduled-messages";
import type { Job } from "./job";

/**
 * Scheduled send (issue 28): every few seconds, the messages whose time has come go out, each
 * once whatever the number of instances (commands/scheduled-messages.ts).
 */
export const scheduledMessagesJob: Job = {
  name: "scheduled-messages",
  intervalMs: 5_000,
  // After downtime, what fell due meanwhile goes out at once.
  runAtStart: true,
  async run(services) {
    const result = await sendDueScheduledMessages(services);
    if (result.due > 0) services.logger.info(result, "scheduled-messages pass");
  },
};
