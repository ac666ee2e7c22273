import { useTranslation } from "react-i18next";
import { LockIcon } from "../ui/icons";

/** Above an internal note (issue 26), sent or still sending: who sees it, said and read out. */
export function NoteLabel() {
  const { t } = useTranslation("conversation");
  // Split rather than <Trans>: this is in the portal's first load, which Trans would enlarge.
  return (
    <p className="message__note-label">
      <LockIcon />
      <span className="visually-hidden">, </span>
      {t("Internal note")}
      <span className="visually-hidden">{t(": only your team sees this")}</span>
    </p>
  );
}
