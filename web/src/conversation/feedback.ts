import { i18n } from "../i18n/i18n";

export type FeedbackStatus = "pending" | "approved" | "needs_work";

/** The owner's badges for a file that asks for feedback (spec section 4, "File feedback"). */
export function feedbackLabel(status: FeedbackStatus): string {
  if (status === "approved") return i18n.t("Approved", { ns: "conversation" });
  if (status === "needs_work") return i18n.t("Needs Work", { ns: "conversation" });
  return i18n.t("Feedback Required", { ns: "conversation" });
}
