import { useTranslation } from "react-i18next";
import { MessageIcon } from "../ui/icons";

export function EmptyConversation({ otherName }: { otherName: string }) {
  const { t } = useTranslation("conversation");
  return (
    <div className="conversation__empty">
      <span className="conversation__empty-icon">
        <MessageIcon />
      </span>
      <p className="conversation__empty-title">{t("No messages yet")}</p>
      <p className="conversation__empty-text">
        {t("Say hello to {{name}}. Messages you send appear here.", { name: otherName })}
      </p>
    </div>
  );
}
