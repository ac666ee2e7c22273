import { sendDueReminders } from "../commands/send-due-reminders";
import type { Job } from "./job";

/** Due-date reminders (issue 27): at 09:00 in each client person's time zone. */
export const dueRemindersJob: Job = {
  name: "due-reminders",
  // A reminder goes out within a minute of its 09:00.
  intervalMs: 60_000,
  // After downtime, the reminders that fell due meanwhile go out at once.
  runAtStart: true,
  async run(services) {
    const result = await sendDueReminders(services);
    if (result.due > 0) services.logger.info(result, "due-reminders pass");
  },
};
