import { sendUnansweredNotifications } from "../commands/send-unanswered-notifications";
import type { Job } from "./job";

/** Emails for messages left unread and unanswered past the recipient's delay. */
export const unansweredMessagesJob: Job = {
  name: "unanswered-messages",
  // Delays are whole minutes: a pass every 20 s sends within a third of a minute of due.
  intervalMs: 20_000,
  async run(services) {
    const result = await sendUnansweredNotifications(services);
    if (result.claimed > 0) services.logger.info(result, "unanswered-messages sweep");
  },
};
