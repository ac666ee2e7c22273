import type { FileMessage } from "./files-api";

/** Files that wait for the client's decision (newest versions the owner sent). */
export const pendingFiles = (messages: FileMessage[]) =>
  messages.filter(
    (message) =>
      message.requiresFeedback &&
      message.feedbackStatus === "pending" &&
      message.isLatestVersion !== false,
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
  return (
    <button type="button" className="conversation__pending" onClick={onShow}>
      {count === 1 ? "1 file waits" : `${count} files wait`}{" "}
      {viewerRole === "client" ? "for your approval" : `for ${otherName}'s decision`}
    </button>
  );
}
