import { useTranslation } from "react-i18next";
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

interface PendingFilesProps {
  count: number;
  viewerRole: "owner" | "client";
  otherName: string;
  /** Shows the first file that waits. */
  onShow: () => void;
}

/** "2 files wait for your approval" above the log: a click scrolls to the first one. */
export function PendingFiles({ count, viewerRole, otherName, onShow }: PendingFilesProps) {
  const { t } = useTranslation("conversation");
  return (
    <button type="button" className="conversation__pending" onClick={onShow}>
      {viewerRole === "client"
        ? t("{{count}} files wait for your approval", { count })
        : t("{{count}} files wait for {{name}}'s decision", { count, name: otherName })}
    </button>
  );
}
