import { Link } from "react-router";
import { useCurrentUser } from "../api/current-user";
import { buttonClassName } from "../ui/button";
import { MessageIcon } from "../ui/icons";

/** The main area before a client is picked. */
export function NoClientChosen() {
  const { data: user } = useCurrentUser();
  return (
    <div className="no-client">
      <span className="no-client__icon">
        <MessageIcon />
      </span>
      <h1 className="no-client__title">Let's keep it simple.</h1>
      <p className="no-client__text">Pick a client to start communicating.</p>
      {user?.accountTier === "free" && (
        <Link to="/pricing" className={buttonClassName("primary", "lg")}>
          Upgrade
        </Link>
      )}
    </div>
  );
}
