import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useCurrentUser } from "../api/current-user";
import { buttonClassName } from "../ui/button";
import { MessageIcon } from "../ui/icons";

/** The main area before a client is picked. */
export function NoClientChosen() {
  const { data: user } = useCurrentUser();
  const { t } = useTranslation("dashboard");
  return (
    <div className="no-client">
      <span className="no-client__icon">
        <MessageIcon />
      </span>
      <h1 className="no-client__title">{t("Let's keep it simple.")}</h1>
      <p className="no-client__text">{t("Pick a client to start communicating.")}</p>
      {user?.accountTier === "free" && (
        <Link to="/pricing" className={buttonClassName("primary", "lg")}>
          {t("Upgrade")}
        </Link>
      )}
    </div>
  );
}
