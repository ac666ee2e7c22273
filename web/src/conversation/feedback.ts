/** The owner's badges for a file that asks for feedback (spec section 4, "File feedback"). */
export const FEEDBACK_LABELS = {
  pending: "Feedback Required",
  approved: "Approved",
  needs_work: "Needs Work",
} as const;
