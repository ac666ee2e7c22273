import { Button } from "../ui/button";
import type { OutboxEntry } from "./outbox";

interface UnsentMessagesProps {
  entries: OutboxEntry[];
  onRetry: (entry: OutboxEntry) => void;
}

/**
 * The viewer's messages the server has not confirmed, after the conversation: "Sending..."
 * while the request and its retries run, "Not sent" with Retry once they gave up.
 */
export function UnsentMessages({ entries, onRetry }: UnsentMessagesProps) {
  if (entries.length === 0) return null;
  return (
    <ol className="message-list message-list--unsent" aria-label="Messages not yet sent">
      {entries.map((entry) => (
        <li
          key={entry.key}
          className={`message message--own message--${entry.state === "failed" ? "failed" : "sending"}`}
        >
          <p className="message__bubble">{entry.content}</p>
          {entry.state === "failed" ? (
            <p className="message__receipt message__receipt--failed" role="status">
              Not sent
              <Button variant="ghost" size="sm" onClick={() => onRetry(entry)}>
                Retry
              </Button>
            </p>
          ) : (
            <p className="message__receipt">Sending...</p>
          )}
        </li>
      ))}
    </ol>
  );
}
