import type { FileMessage } from "./files-api";

/**
 * Whether a pending file waits for this client-side person (issue 27): with "everyone", while
 * their own decision is pending, or when nobody asked is left; otherwise always.
 */
export function asksViewer(message: FileMessage, viewerId: string | undefined): boolean {
  if (message.approvalRule !== "everyone" || viewerId === undefined) return true;
  const asked = message.approvals ?? [];
  if (!asked.some((person) => person.status === "pending")) return true;
  return asked.some((person) => person.userId === viewerId && person.status === "pending");
}

/**
 * Files that wait for the client's decision (newest versions the owner sent); given the
 * client-side viewer, those that wait for them.
 */
export const pendingFiles = (messages: FileMessage[], clientViewerId?: string) =>
  messages.filter(
    (message) =>
      message.requiresFeedback &&
      message.feedbackStatus === "pending" &&
      message.isLatestVersion !== false &&
      asksViewer(message, clientViewerId),
  );
