import { useQueryClient } from "@tanstack/react-query";
import { type CSSProperties, lazy, Suspense, useState } from "react";
import { brandShades } from "../../../shared/contrast";
import { DEFAULT_COLORS } from "../../../shared/defaults";
import { CLOSE_CODES } from "../../../shared/realtime";
import type { User } from "../api/current-user";
import { queryKeys } from "../api/query-keys";
import { Conversation } from "../conversation/conversation";
import { ConnectionBanner } from "../realtime/connection-banner";
import { useRealtime } from "../realtime/use-realtime";
import { toHexColor } from "../ui/css-color";
import { Spinner } from "../ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../ui/tabs";
import type { PortalClient } from "./portal-client-query";
import { usePortalRoute } from "./portal-location";
import { PortalHeader } from "./portal-header";

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

/**
 * The portal's colours as the theme's variables (the rest derives from these three): an
 * agency owner's own scheme, the spec's default scheme for every other plan.
 */
function brandStyle(owner: PortalClient["owner"]): CSSProperties {
  const colors = owner.accountTier === "agency" ? owner : DEFAULT_COLORS;
  // Fills and primary text use shades that stay readable with any chosen colour (WCAG AA).
  const shades = brandShades({
    primaryColor: toHexColor(colors.primaryColor) ?? colors.primaryColor,
    backgroundColor: toHexColor(colors.backgroundColor) ?? colors.backgroundColor,
    textColor: toHexColor(colors.textColor) ?? colors.textColor,
  });
  return {
    "--brand-primary": colors.primaryColor,
    "--brand-primary-strong": shades.primaryStrong,
    "--brand-primary-text": shades.primaryText,
    "--brand-text-muted": shades.textMuted,
    "--brand-text-subtle": shades.textSubtle,
    "--brand-background": colors.backgroundColor,
    "--brand-text": colors.textColor,
  } as CSSProperties;
}

/** The signed-in client's page (spec "main"): Conversation, Attachments, Settings, footer. */
export function PortalMain({ user, client, onRemoved }: PortalMainProps) {
  // ?tab=settings: the link in notification emails to change the delay.
  const { searchParams } = usePortalRoute();
  const [tab, setTab] = useState(() =>
    searchParams.get("tab") === "settings" ? "settings" : "conversation",
  );
  const queryClient = useQueryClient();
  const ownerName = client.owner.companyName || client.owner.fullName;
  const status = useRealtime({
    side: "client",
    onEnded: (code) => {
      if (code !== CLOSE_CODES.accessRevoked) return;
      // Nothing of the conversation stays in memory once access is gone.
      queryClient.removeQueries({ queryKey: queryKeys.allMessages });
      queryClient.removeQueries({ queryKey: ["attachments"] });
      onRemoved();
    },
  });
  return (
    <div className="portal portal--branded" style={brandStyle(client.owner)}>
      <PortalHeader user={user} client={client} />
      <ConnectionBanner status={status} />
      <Tabs value={tab} onValueChange={setTab} className="portal__tabs">
        <TabsList className="portal__tablist" aria-label="Your conversation">
          <TabsTrigger value="conversation">Conversation</TabsTrigger>
          <TabsTrigger value="attachments">Attachments</TabsTrigger>
          <TabsTrigger value="settings">Settings</TabsTrigger>
        </TabsList>
        <main className="portal__main">
          <TabsContent value="conversation" className="portal__panel">
            <Conversation clientId={client.id} viewerRole="client" otherName={ownerName} />
          </TabsContent>
          <TabsContent value="attachments" className="portal__panel portal__panel--page">
            <Suspense fallback={<Spinner label="Loading attachments" />}>
              <AttachmentsPanel clientId={client.id} viewerRole="client" otherName={ownerName} />
            </Suspense>
          </TabsContent>
          <TabsContent value="settings" className="portal__panel portal__panel--page">
            <Suspense fallback={<Spinner label="Loading settings" />}>
              <PortalSettings client={client} />
            </Suspense>
          </TabsContent>
        </main>
      </Tabs>
      <footer className="portal__footer">
        Powered by <strong>ClientDesk</strong>
      </footer>
    </div>
  );
}
