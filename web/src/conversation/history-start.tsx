import { useTranslation } from "react-i18next";
import { Button } from "../ui/button";
import type { OlderPages } from "./use-chat-scroll";

/**
 * Above the oldest loaded message: Load older messages (its state while loading or after a
 * failure), or the start of the conversation once everything is loaded.
 */
export function HistoryStart({ older, otherName }: { older: OlderPages; otherName: string }) {
  const { t } = useTranslation("conversation");
  return (
    <div className="conversation__history">
      {older.hasMore ? (
        <Button variant="ghost" size="sm" loading={older.loading} onClick={older.load}>
          {older.loading
            ? t("Loading older messages...")
            : older.failed
              ? t("Couldn't load older messages. Try again")
              : t("Load older messages")}
        </Button>
      ) : (
        <p className="conversation__start">
          {t("This is the start of your conversation with {{name}}.", { name: otherName })}
        </p>
      )}
    </div>
  );
}
