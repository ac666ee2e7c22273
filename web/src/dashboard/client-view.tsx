import { useQueryClient } from "@tanstack/react-query";
import { lazy, type MouseEvent, Suspense, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigate, useSearchParams } from "react-router";
import { useCurrentUser } from "../api/current-user";
import { queryKeys } from "../api/query-keys";
import { Conversation } from "../conversation/conversation";
import { staffConversationTools } from "./staff-conversation-tools";
import { buttonClassName } from "../ui/button";
import { ArrowLeftIcon } from "../ui/icons";
import { Spinner } from "../ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../ui/tabs";
import { useToastStep } from "../ui/toast-steps";
import { ClientActions } from "./client-actions";
import { openedFromList } from "./client-list";
import type { OwnerClient } from "./clients-query";
import type { InviteLinks } from "./invite-link-chooser";

/** The Attachments tab is not needed at first paint: it loads when opened. */
const AttachmentsPanel = lazy(() => import("../conversation/attachments-panel"));

interface ClientViewProps {
  client: OwnerClient;
  onShowInviteLinks: (links: InviteLinks) => void;
}

/** The chosen client: header (name, email, Joined or Pending Invite) and the two tabs. */
export function ClientView({ client, onShowInviteLinks }: ClientViewProps) {
  const [tab, setTab] = useState("conversation");
  const queryClient = useQueryClient();
  const goBack = useBackToList();
  const { focusMessageId, onFocused } = useMessageToShow();
  // A colleague's messages carry their name and picture; the viewer's own do not need them.
  const { data: viewer } = useCurrentUser();
  const { t } = useTranslation("dashboard");
  // An error about this client goes once the owner moves on to another client or the list.
  useToastStep(true);
  // A search result opens in the conversation, whichever tab was open.
  useEffect(() => {
    if (focusMessageId) setTab("conversation");
  }, [focusMessageId]);
  // Reading changes the unread count and "awaiting reply" in the list.
  const onRead = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: queryKeys.clients }),
    [queryClient],
  );

  return (
    <div className="client-view">
      <header className="client-header">
        <Link
          to="/"
          className={`${buttonClassName("ghost", "icon")} client-header__back`}
          aria-label={t("Back to clients")}
          onClick={goBack}
        >
          <ArrowLeftIcon />
        </Link>
        <div className="client-header__who">
          <h1 className="client-header__name">{client.name}</h1>
          <p className="client-header__details">
            <span className="client-header__email">{client.email}</span>
            <span
              className={`client-list__state${client.joinedAt ? " client-list__state--joined" : ""}`}
            >
              {client.joinedAt ? t("Joined") : t("Pending Invite")}
            </span>
          </p>
        </div>
        <ClientActions client={client} onShowInviteLinks={onShowInviteLinks} />
      </header>
      <Tabs value={tab} onValueChange={setTab} className="client-view__tabs">
        <TabsList
          className="client-view__tablist"
          aria-label={t("{{client}}: views", { client: client.name })}
        >
          <TabsTrigger value="conversation">{t("Conversation")}</TabsTrigger>
          <TabsTrigger value="attachments">{t("Attachments")}</TabsTrigger>
        </TabsList>
        <TabsContent value="conversation" className="client-view__panel">
          <Conversation
            clientId={client.id}
            viewerRole="owner"
            otherName={client.name}
            viewerName={viewer?.fullName}
            onRead={onRead}
            focusMessageId={focusMessageId}
            onFocused={onFocused}
            staffTools={staffConversationTools}
          />
        </TabsContent>
        <TabsContent value="attachments" className="client-view__panel client-view__panel--scroll">
          <Suspense fallback={<Spinner label={t("Loading attachments")} />}>
            <AttachmentsPanel clientId={client.id} viewerRole="owner" otherName={client.name} />
          </Suspense>
        </TabsContent>
      </Tabs>
    </div>
  );
}

/**
 * `&message=<id>` (a search result): the message to scroll to. Once shown, it leaves the
 * address, so that opening the same result again scrolls to it again.
 */
function useMessageToShow() {
  const [searchParams, setSearchParams] = useSearchParams();
  // Keeps "opened from the list" (the Back button's behaviour).
  const { state } = useLocation();
  const focusMessageId = searchParams.get("message");
  const onFocused = useCallback(
    () =>
      setSearchParams(
        (params) => {
          params.delete("message");
          return params;
        },
        { replace: true, state },
      ),
    [setSearchParams, state],
  );
  return { focusMessageId, onFocused };
}

/**
 * Back (the header's arrow on a phone): opened from the list, it is the browser's Back, so
 * history does not grow a loop of list and conversation; opened from a link, the list.
 */
function useBackToList() {
  const location = useLocation();
  const navigate = useNavigate();
  return (event: MouseEvent) => {
    // A modified click (a new tab or window) keeps the link's own meaning.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    if (!openedFromList(location.state)) return;
    event.preventDefault();
    void navigate(-1);
  };
}
