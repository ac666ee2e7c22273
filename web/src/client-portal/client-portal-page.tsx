import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { useCurrentUser } from "../api/current-user";
import { useReportTimeZone } from "../api/time-zone";
import { buttonClassName } from "../ui/button";
import { FullPageRedirect } from "../ui/full-page-redirect";
import { PageMessage } from "../ui/page-message";
import { CenteredSpinner } from "../ui/spinner";
import type { ClientSignInPageProps } from "./client-sign-in-page";
import { type InviteHandling, useInviteHandling } from "./invite-handling";
import { inviteLinkIn } from "./invite-link";
import type { BrandingLookup } from "./portal-branding-query";
import { usePortalRoute } from "./portal-location";
import { PortalMain } from "./portal-main";
import { usePortalClient } from "./portal-client-query";
import { portalState } from "./portal-state";
import { rememberedClient } from "./remembered-client";

/** Shown only when an invite meets someone signed in: not in the first load. */
const InviteConflict = lazy(() => import("./invite-conflict"));
/** Signed out: the sign-in page's code comes then, not in a signed-in client's first load. */
const LazySignInPage = lazy(() =>
  import("./client-sign-in-page").then((module) => ({ default: module.ClientSignInPage })),
);

function ClientSignInPage(props: ClientSignInPageProps) {
  return (
    <Suspense fallback={<CenteredSpinner />}>
      <LazySignInPage {...props} />
    </Suspense>
  );
}

/** /client/{clientId}, /client?code=..., /invite/{token} and /invite. */
export function ClientPortalPage() {
  const { t } = useTranslation("portal");
  const route = usePortalRoute();
  const { clientId } = route;
  const invite = useInviteHandling(inviteLinkIn(route));
  const userQuery = useCurrentUser();
  useReportTimeZone(userQuery.data);
  const isClient = userQuery.data?.role === "client";
  // The owner deleted this client while the page was open (the socket closed with 4001).
  const [removed, setRemoved] = useState(false);
  const clientQuery = usePortalClient(clientId, isClient && invite.state === "none" && !removed);

  if (removed) return <NoClient />;

  if (userQuery.isLoadingError) {
    return (
      <PageMessage
        title={t("We couldn't load this page")}
        text={t("Check your connection and try again.")}
        actions={
          <button
            type="button"
            className={buttonClassName("primary")}
            onClick={() => void userQuery.refetch()}
          >
            {t("Try again")}
          </button>
        }
      />
    );
  }

  if (invite.state === "refused") return <RefusedInvite invite={invite} />;

  const state = portalState({
    inviteInProgress: invite.state === "processing",
    user: userQuery.data,
    routeClientId: clientId,
    client: { status: clientQuery.status, data: clientQuery.data },
  });

  switch (state.kind) {
    case "processing":
      return <CenteredSpinner />;
    case "missing_auth": {
      // The spec's "Missing user or invite token" left nowhere to go: this page offers a way in.
      const known = clientId ?? rememberedClient();
      return <ClientSignInPage reason="no-session" lookup={known ? { client: known } : null} />;
    }
    case "redirect_owner":
      return <FullPageRedirect to="/" />;
    case "redirect_own_conversation":
      return <FullPageRedirect to={`/client/${encodeURIComponent(state.clientId)}`} />;
    case "no_client":
      return <NoClient />;
    case "main":
      return (
        <PortalMain user={state.user} client={state.client} onRemoved={() => setRemoved(true)} />
      );
  }
}

/**
 * An invite link that did not open the conversation. Someone else signed in here (the owner of
 * that client included) is told so; a client who is signed in already goes to their
 * conversation; everyone else gets the portal's sign-in page, saying whether the link was used
 * or never existed.
 */
function RefusedInvite({ invite }: { invite: Extract<InviteHandling, { state: "refused" }> }) {
  const { data: user, isPending } = useCurrentUser();
  const { refusal, link } = invite;
  if (isPending) return <CenteredSpinner />;
  if (refusal.reason === "own" || refusal.reason === "signed_in") {
    return (
      <Suspense fallback={<CenteredSpinner />}>
        <InviteConflict refusal={refusal} onSignedOut={invite.retry} />
      </Suspense>
    );
  }
  if (user?.role === "client" && user.clientId) {
    return <FullPageRedirect to={`/client/${encodeURIComponent(user.clientId)}`} />;
  }
  const lookup: BrandingLookup = "token" in link ? { invite: link.token } : { code: link.code };
  return <ClientSignInPage reason={refusal.reason} lookup={lookup} />;
}

function NoClient() {
  const { t } = useTranslation("portal");
  return (
    <PageMessage title={t("Invalid client")} text={t("This client conversation was not found.")} />
  );
}
