import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { buttonClassName } from "../ui/button";
import { PageMessage } from "../ui/page-message";

export function NotFoundPage() {
  const { t } = useTranslation("common");
  return (
    <PageMessage
      code="404"
      title={t("Page not found")}
      text={t("The page you are looking for does not exist or has moved.")}
      actions={
        <Link to="/" className={buttonClassName("primary")}>
          {t("Go to dashboard")}
        </Link>
      }
    />
  );
}
