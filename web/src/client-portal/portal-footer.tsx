import { useTranslation } from "react-i18next";
import { StrongText } from "../ui/strong-text";

/** "Powered by ClientDesk" at the end of every portal page. */
export function PortalFooter() {
  const { t } = useTranslation("portal");
  return (
    <footer className="portal__footer">
      <StrongText text={t("Powered by <strong>ClientDesk</strong>")} />
    </footer>
  );
}
