import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { DEFAULT_COLORS } from "../../../shared/defaults";
import { ownerNameForClient } from "../../../shared/owner-name";
import { CLOSE_CODES } from "../../../shared/realtime";
import type { User } from "../api/current-user";
import { queryKeys } from "../api/query-keys";
import { placeArrivedMessage } from "../conversation/arrived-message";
import { Conversation } from "../conversation/conversation";
import { useUnreadCount } from "../conversation/unread-count";
import { optionalPart } from "../ui/optional-part";
import { useRealtime } from "../realtime/use-realtime";
import { Spinner } from "../ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../ui/tabs";
import { useUnreadTitle } from "../ui/unread-title";
import { brandColors } from "./portal-branding-query";
import type { PortalClient } from "./portal-client-query";
import { navigate, usePortalRoute } from "./portal-location";
import { PortalFooter } from "./portal-footer";
import { PortalHeader } from "./portal-header";
import { rememberClient } from "./remembered-client";

/** The Attachments tab is not needed at first paint: it loads when opened. */
const AttachmentsPanel = lazy(() => import("../conversation/attachments-panel"));
/** So does the Settings tab (its form fields are not in the first load either). */
const PortalSettings = lazy(() =>
  import("./portal-settings").then((module) => ({ default: module.PortalSettings })),
);

interface PortalMainProps {
  user: User;
  client: PortalClient;
  /** The owner deleted this client: the server closed the socket with 4001. */
  onRemoved: () => void;
}

/** "Reconnecting…" shows only after a drop: it loads just after the page (its first load). */
const ConnectionBanner = optionalPart(
  () => import("../realtime/connection-banner").then((module) => module.ConnectionBanner),
  () => <div className="connection-banner" role="status" aria-live="polite" />,
);

/** Search opens in a dialog, loaded when first asked for. */
const SearchDialog = lazy(() => import("../search/search-dialog"));

/**
 * The portal's colours as the theme's variables (the rest derives from these three): an
 * agency owner's own scheme, the spec's default scheme for every other plan.
 */
function brandStyle(owner: PortalClient["owner"]) {
  const colors = owner.accountTier === "agency" ? owner : DEFAULT_COLORS;
  return brandColors({ ...colors, shades: owner.shades });
}

/** The signed-in client's page (spec "main"): Conversation, Attachments, Settings, footer. */
export function PortalMain({ user, client, onRemoved }: PortalMainProps) {
  const { t } = useTranslation("portal");
  // ?tab=settings: the link in notification emails to change the delay.
  const { searchParams } = usePortalRoute();
  const [tab, setTab] = useState(() =>
    searchParams.get("tab") === "settings" ? "settings" : "conversation",
  );
  const [searching, setSearching] = useState(false);
  // ?message=<id>: a search result, scrolled to; it then leaves the address.
  const focusMessageId = searchParams.get("message");
  const onFocused = useCallback(
    () => navigate(`/client/${encodeURIComponent(client.id)}`, { replace: true }),
    [client.id],
  );
  const queryClient = useQueryClient();
  const ownerName = ownerNameForClient(client.owner);
  const unread = useUnreadCount(client.id, "client");
  useUnreadTitle(unread);
  // Signed-out pages of this browser wear this owner's branding later.
  useEffect(() => rememberClient(client.id), [client.id]);
  const status = useRealtime({
    side: "client",
    placeMessage: placeArrivedMessage,
    onEnded: (code) => {
      if (code !== CLOSE_CODES.accessRevoked) return;
      // Nothing of the conversation stays in memory once access is gone.
      queryClient.removeQueries({ queryKey: queryKeys.allMessages });
      queryClient.removeQueries({ queryKey: ["attachments"] });
      queryClient.removeQueries({ queryKey: queryKeys.allSearches });
      onRemoved();
    },
  });
  return (
    <div className="portal portal--branded" style={brandStyle(client.owner)}>
      <PortalHeader user={user} client={client} onSearch={() => setSearching(true)} />
      <ConnectionBanner status={status} />
      <Tabs value={tab} onValueChange={setTab} className="portal__tabs">
        <TabsList className="portal__tablist" aria-label={t("Your conversation")}>
          <TabsTrigger value="conversation">
            {t("Conversation")}
            {/* Away on another tab: the count of what arrived meanwhile. */}
            {tab !== "conversation" && !!unread && (
              <span className="portal__tab-unread">
                {unread}
                <span className="visually-hidden">{` ${t("unread")}`}</span>
              </span>
            )}
          </TabsTrigger>
          <TabsTrigger value="attachments">{t("Attachments")}</TabsTrigger>
          <TabsTrigger value="settings">{t("Settings")}</TabsTrigger>
        </TabsList>
        <main className="portal__main">
          <TabsContent value="conversation" className="portal__panel">
            <Conversation
              clientId={client.id}
              viewerRole="client"
              otherName={ownerName}
              viewerName={user.fullName}
              otherAvatar={{
                name: ownerName,
                imageUrl: client.owner.profilePicture,
              }}
              focusMessageId={focusMessageId}
              onFocused={onFocused}
            />
            {/* The footer ends each tab, scrolling with it (pinned, it cut into a phone's screen). */}
            <PortalFooter />
          </TabsContent>
          <TabsContent value="attachments" className="portal__panel portal__panel--page">
            <Suspense fallback={<Spinner label={t("Loading attachments")} />}>
              <AttachmentsPanel clientId={client.id} viewerRole="client" otherName={ownerName} />
            </Suspense>
            <PortalFooter />
          </TabsContent>
          <TabsContent value="settings" className="portal__panel portal__panel--page">
            <Suspense fallback={<Spinner label={t("Loading settings")} />}>
              <PortalSettings client={client} />
            </Suspense>
            <PortalFooter />
          </TabsContent>
        </main>
      </Tabs>
      {searching && (
        <Suspense fallback={null}>
          <SearchDialog
            clientId={client.id}
            onClose={() => setSearching(false)}
            onOpen={(result) => {
              setSearching(false);
              setTab("conversation");
              navigate(
                `/client/${encodeURIComponent(client.id)}?message=${encodeURIComponent(result.messageId)}`,
                // The address goes back to the conversation's once the message is shown: one
                // history entry, not two alike.
                { replace: true },
              );
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
