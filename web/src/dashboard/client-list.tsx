import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useMyTeamRole } from "../api/team-members";
import { formatActivity, formatFull } from "../conversation/format-time";
import { formatNumber } from "../i18n/formats";
import { Avatar } from "../ui/avatar";
import { UsersIcon } from "../ui/icons";
import { Spinner } from "../ui/spinner";
import { lastActivity, type OwnerClient, useClients } from "./clients-query";

/** The page of one client's conversation: `/?client=<id>`, so a reload keeps it open. */
export function clientPath(clientId: string): string {
  return `/?client=${encodeURIComponent(clientId)}`;
}

/** A conversation scrolled to one of its messages (a search result): `/?client=<id>&message=<id>`. */
export function messagePath(clientId: string, messageId: string): string {
  return `${clientPath(clientId)}&message=${encodeURIComponent(messageId)}`;
}

/**
 * History state of a conversation opened from the list: its Back button then steps back in
 * history (to the list) rather than pushing the list again, so the browser's Back does not
 * return to the conversation just left.
 */
export const OPENED_FROM_LIST = { openedFromList: true } as const;

export function openedFromList(state: unknown): boolean {
  return (state as Partial<typeof OPENED_FROM_LIST> | null)?.openedFromList === true;
}

/**
 * The owner's clients, newest activity first: invite state (green dot and "Joined", or
 * "Pending Invite"), unread count, and a marker for conversations waiting for the owner.
 */
export function ClientList({ selectedId }: { selectedId: string | null }) {
  const { data: clients, isPending, isLoadingError, refetch } = useClients();
  const myRole = useMyTeamRole();
  const { t } = useTranslation("dashboard");

  return (
    <nav className="client-list" aria-label={t("Clients")}>
      <p className="client-list__heading">{t("Clients")}</p>
      {isPending && (
        <div className="client-list__status">
          <Spinner size="sm" label={t("Loading clients")} />
        </div>
      )}
      {isLoadingError && (
        <div className="client-list__status">
          <p>{t("We couldn't load your clients.")}</p>
          <button type="button" className="client-list__retry" onClick={() => void refetch()}>
            {t("Try again")}
          </button>
        </div>
      )}
      {clients?.length === 0 && (
        <div className="client-list__empty">
          <span className="client-list__empty-icon">
            <UsersIcon />
          </span>
          {myRole === "member" ? (
            <>
              <p>{t("No clients assigned to you yet")}</p>
              <p className="client-list__empty-hint">
                {t("The owner or an admin assigns clients to you; a client you add is yours.")}
              </p>
            </>
          ) : (
            <>
              <p>{t("No clients yet")}</p>
              <p className="client-list__empty-hint">
                {t("Add a client to send them a private invite link.")}
              </p>
            </>
          )}
        </div>
      )}
      {clients && clients.length > 0 && (
        <ul className="client-list__items">
          {clients.map((client) => (
            <li key={client.id}>
              <ClientListItem client={client} selected={client.id === selectedId} />
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}

function ClientListItem({ client, selected }: { client: OwnerClient; selected: boolean }) {
  const activity = lastActivity(client);
  const unread = client.unreadCount;
  // Files the owner sent for approval that wait for the client's decision.
  const pending = (client as { pendingApprovals?: number }).pendingApprovals ?? 0;
  const { t } = useTranslation("dashboard");
  return (
    <Link
      to={clientPath(client.id)}
      state={OPENED_FROM_LIST}
      className={`client-list__item${selected ? " client-list__item--selected" : ""}${unread > 0 ? " client-list__item--unread" : ""}`}
      aria-current={selected ? "page" : undefined}
    >
      <Avatar name={client.name} size={36} />
      <span className="client-list__body">
        <span className="client-list__row">
          <span className="client-list__name" title={client.name}>
            {client.name}
          </span>
          <time className="client-list__time" dateTime={activity} title={formatFull(activity)}>
            {formatActivity(activity)}
          </time>
        </span>
        <span className="client-list__row client-list__row--badges">
          <span
            className={`client-list__state${client.joinedAt ? " client-list__state--joined" : ""}`}
          >
            {client.joinedAt ? t("Joined") : t("Pending Invite")}
          </span>
          {client.awaitingReply && (
            <span
              className="client-list__awaiting"
              title={t("The last message is from the client")}
            >
              {t("Awaiting reply")}
            </span>
          )}
          {pending > 0 && (
            <span
              className="client-list__pending"
              title={t("Files waiting for the client's decision")}
            >
              {t("{{count}} files to approve", { count: pending })}
            </span>
          )}
          {unread > 0 && (
            <span className="client-list__unread">
              <span aria-hidden="true">
                {unread > 99 ? `${formatNumber(99)}+` : formatNumber(unread)}
              </span>
              <span className="visually-hidden">
                {t("{{count}} unread messages", { count: unread })}
              </span>
            </span>
          )}
        </span>
      </span>
    </Link>
  );
}
