import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../ui/button";
import { ClockIcon } from "../ui/icons";
import type { Message } from "./messages-query";
import { NoteLabel } from "./note-label";
import { type OutboxEntry, outbox } from "./outbox";

/**
 * The own text message in the list that may be `entry` stored after all (its answer was lost,
 * and the list learnt of it by the websocket): same text, newer than the entry's send, not
 * the answer to another entry. Only a hint: the entry's retry with its key decides.
 */
function likelyStored(entry: OutboxEntry, messages: Message[], viewerRole: string) {
  const start = entry.afterId ? messages.findIndex((m) => m.id === entry.afterId) + 1 : 0;
  return messages
    .slice(start)
    .find(
      (message) =>
        message.senderRole === viewerRole &&
        !message.fileUrl &&
        message.content === entry.content &&
        !outbox.isConfirmed(message.id),
    );
}

/**
 * The entries to show under the list. One whose message already shows in the list is hidden
 * while its retry runs (the server's answer to the same key confirms it), and a failed one is
 * retried at once when it appears there (the network is evidently back), so the same message
 * is not shown twice, once as sent and once as Not sent.
 */
export function useUnsentInList(
  entries: OutboxEntry[],
  messages: Message[] | undefined,
  viewerRole: string,
  retry: (entry: OutboxEntry) => void,
): OutboxEntry[] {
  const retryRef = useRef(retry);
  retryRef.current = retry;
  const retried = useRef(new Set<string>());
  const matches = entries.map((entry) => likelyStored(entry, messages ?? [], viewerRole));

  useEffect(() => {
    entries.forEach((entry, index) => {
      const match = matches[index];
      const attempt = match && `${entry.key} ${match.id}`;
      if (entry.state !== "failed" || !attempt || retried.current.has(attempt)) return;
      retried.current.add(attempt);
      retryRef.current(entry);
    });
  });

  return entries.filter((entry, index) => entry.state === "failed" || !matches[index]);
}

interface UnsentMessagesProps {
  entries: OutboxEntry[];
  onRetry: (entry: OutboxEntry) => void;
}

/**
 * The viewer's messages the server has not confirmed, after the conversation: "Sending..."
 * while its request runs, "Waiting for connection" while the server cannot be reached (it goes
 * out by itself when it can), "Not sent" with the server's reason and Retry once refused.
 */
export function UnsentMessages({ entries, onRetry }: UnsentMessagesProps) {
  const { t } = useTranslation("conversation");
  if (entries.length === 0) return null;
  return (
    <ol className="message-list message-list--unsent" aria-label={t("Messages not yet sent")}>
      {entries.map((entry) => (
        <li
          key={entry.key}
          className={`message message--own message--${entry.state}${entry.visibility === "internal" ? " message--note" : ""}`}
        >
          {/* A note looks like one from the start: it never flashes as a message to the client. */}
          {entry.visibility === "internal" && <NoteLabel />}
          <p className="message__bubble" dir="auto">
            {entry.content}
          </p>
          <UnsentReceipt entry={entry} onRetry={onRetry} />
        </li>
      ))}
    </ol>
  );
}

function UnsentReceipt({
  entry,
  onRetry,
}: {
  entry: OutboxEntry;
  onRetry: UnsentMessagesProps["onRetry"];
}) {
  const { t } = useTranslation("conversation");
  if (entry.state === "failed") {
    return (
      <p className="message__receipt message__receipt--failed" role="status">
        {entry.reason ? t("Not sent: {{reason}}", { reason: entry.reason }) : t("Not sent")}
        <Button variant="ghost" size="sm" onClick={() => onRetry(entry)}>
          {t("Retry")}
        </Button>
      </p>
    );
  }
  if (entry.state === "queued") {
    return (
      <p className="message__receipt message__receipt--queued">
        <ClockIcon />
        {t("Waiting for connection")}
      </p>
    );
  }
  return <p className="message__receipt">{t("Sending...")}</p>;
}
