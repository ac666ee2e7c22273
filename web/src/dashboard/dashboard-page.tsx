import { useQueryClient } from "@tanstack/react-query";
import { lazy, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router";
import { queryKeys } from "../api/query-keys";
import { placeArrivedMessage } from "../conversation/arrived-message";
import { TestModeBar } from "../billing/test-mode-bar";
import { OfflineBanner } from "../realtime/offline-banner";
import { presenceStore } from "../realtime/presence-store";
import { useRealtime } from "../realtime/use-realtime";
import type { SettingsTab } from "../settings/account-settings-dialog";
import { buttonClassName } from "../ui/button";
import { OnceOpened } from "../ui/once-opened";
import { Spinner } from "../ui/spinner";
import { useToast } from "../ui/toast";
import { useUnreadTitle } from "../ui/unread-title";
import { clientPath } from "./client-list";
import { ClientView } from "./client-view";
import { totalUnread, useClients } from "./clients-query";
import type { InviteLinks } from "./invite-link-chooser";
import { NoClientChosen } from "./no-client-chosen";
import { PaymentFailedBanner } from "./payment-failed-banner";
import { Sidebar } from "./sidebar";
import "./dashboard.css";

/**
 * The dialogs are not part of the first screen (the client list and the conversation): each
 * loads the first time it opens, which keeps their code (settings, billing, forms) out of
 * what a phone downloads before it can show the conversation.
 */
const AccountSettingsDialog = lazy(() =>
  import("../settings/account-settings-dialog").then((m) => ({ default: m.AccountSettingsDialog })),
);
const AddClientDialog = lazy(() =>
  import("./add-client-dialog").then((m) => ({ default: m.AddClientDialog })),
);
const InviteLinkChooser = lazy(() =>
  import("./invite-link-chooser").then((m) => ({ default: m.InviteLinkChooser })),
);

export function DashboardPage() {
  const [settingsTab, setSettingsTab] = useState<SettingsTab | null>(null);
  const [addClientOpen, setAddClientOpen] = useState(false);
  const [inviteLinks, setInviteLinks] = useState<InviteLinks | null>(null);
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const selectedId = searchParams.get("client");
  const realtimeStatus = useRealtime({
    side: "owner",
    placeMessage: placeArrivedMessage,
    presence: presenceStore,
  });
  useSubscriptionSuccessNotice();
  useSettingsLink(setSettingsTab);
  useUnreadInTitle();

  return (
    <div className={`dashboard${selectedId ? " dashboard--client-open" : ""}`}>
      <TestModeBar />
      <PaymentFailedBanner />
      <OfflineBanner status={realtimeStatus} />
      <div className="dashboard__body">
        <Sidebar
          selectedClientId={selectedId}
          onOpenSettings={setSettingsTab}
          onAddClient={() => setAddClientOpen(true)}
        />
        <main className="dashboard__main">
          {selectedId ? (
            <ChosenClient clientId={selectedId} onShowInviteLinks={setInviteLinks} />
          ) : (
            <NoClientChosen />
          )}
        </main>
      </div>
      <OnceOpened open={settingsTab !== null}>
        <AccountSettingsDialog
          tab={settingsTab}
          onTabChange={setSettingsTab}
          onClose={() => setSettingsTab(null)}
        />
      </OnceOpened>
      <OnceOpened open={addClientOpen}>
        <AddClientDialog
          open={addClientOpen}
          onOpenChange={setAddClientOpen}
          onAdded={(clientId, links) => {
            navigate(clientPath(clientId));
            setInviteLinks(links);
          }}
        />
      </OnceOpened>
      <OnceOpened open={inviteLinks !== null}>
        <InviteLinkChooser links={inviteLinks} onClose={() => setInviteLinks(null)} />
      </OnceOpened>
    </div>
  );
}

/** The client named in the address, from the list (which has all the header needs). */
function ChosenClient({
  clientId,
  onShowInviteLinks,
}: {
  clientId: string;
  onShowInviteLinks: (links: InviteLinks) => void;
}) {
  const { data: clients, isPending, isLoadingError, refetch } = useClients();
  const { t } = useTranslation("dashboard");
  if (isPending) {
    return (
      <div className="no-client">
        <Spinner label={t("Loading client")} />
      </div>
    );
  }
  // A failed refetch (offline) keeps the loaded list, and this client on screen.
  if (isLoadingError) {
    return (
      <div className="no-client" role="alert">
        <h1 className="no-client__title">{t("We couldn't load this client")}</h1>
        <p className="no-client__text">{t("Check your connection and try again.")}</p>
        <button type="button" className={buttonClassName("primary")} onClick={() => void refetch()}>
          {t("Try again")}
        </button>
      </div>
    );
  }
  const client = clients.find((candidate) => candidate.id === clientId);
  if (!client) {
    return (
      <div className="no-client">
        <h1 className="no-client__title">{t("Client not found")}</h1>
        <p className="no-client__text">{t("This client may have been deleted.")}</p>
        <Link to="/" className={buttonClassName("secondary")}>
          {t("Back to your clients")}
        </Link>
      </div>
    );
  }
  return <ClientView key={client.id} client={client} onShowInviteLinks={onShowInviteLinks} />;
}

/** "(3) ClientDesk": unread messages across every conversation, live with the client list. */
function useUnreadInTitle() {
  const { data: clients } = useClients();
  useUnreadTitle(clients && totalUnread(clients));
}

const SETTINGS_TABS: SettingsTab[] = [
  "profile",
  "account",
  "notifications",
  "password",
  "team",
  "replies",
  "deleted-clients",
];

/** /?settings=notifications (the link in notification emails) opens that settings tab once. */
function useSettingsLink(open: (tab: SettingsTab) => void) {
  const [searchParams, setSearchParams] = useSearchParams();
  const asked = searchParams.get("settings");
  useEffect(() => {
    const tab = SETTINGS_TABS.find((candidate) => candidate === asked);
    if (!tab) return;
    open(tab);
    setSearchParams(
      (params) => {
        params.delete("settings");
        return params;
      },
      { replace: true },
    );
  }, [asked, open, setSearchParams]);
}

/** Back from checkout on /?subscription=success: say so once and reload what the plan changes. */
function useSubscriptionSuccessNotice() {
  const [searchParams, setSearchParams] = useSearchParams();
  const queryClient = useQueryClient();
  const toast = useToast();
  const { t } = useTranslation("dashboard");
  const subscribed = searchParams.get("subscription") === "success";

  useEffect(() => {
    if (!subscribed) return;
    toast({
      title: t("Payment Successful"),
      description: t("You are subscribed!"),
      variant: "success",
    });
    for (const queryKey of [queryKeys.user, queryKeys.accountTier, queryKeys.subscriptionStatus]) {
      void queryClient.invalidateQueries({ queryKey });
    }
    setSearchParams(
      (params) => {
        params.delete("subscription");
        return params;
      },
      { replace: true },
    );
  }, [subscribed, toast, t, queryClient, setSearchParams]);
}
