import { useState } from "react";
import { useCurrentUser } from "../api/current-user";
import { buttonClassName } from "../ui/button";
import { FullPageRedirect } from "../ui/full-page-redirect";
import { PageMessage } from "../ui/page-message";
import { CenteredSpinner } from "../ui/spinner";
import { useInviteHandling } from "./invite-handling";
import { inviteLinkIn } from "./invite-link";
import { usePortalRoute } from "./portal-location";
import { PortalMain } from "./portal-main";
import { usePortalClient } from "./portal-client-query";
import { portalState } from "./portal-state";
import { SignInLinkRequest } from "./sign-in-link-request-lazy";

/** /client/{clientId}, /client?code=..., /invite/{token} and /invite. */
export function ClientPortalPage() {
  const route = usePortalRoute();
  const { clientId } = route;
  const inviteInProgress = useInviteHandling(inviteLinkIn(route));
  const userQuery = useCurrentUser();
  const isClient = userQuery.data?.role === "client";
  // The owner deleted this client while the page was open (the socket closed with 4001).
  const [removed, setRemoved] = useState(false);
  const clientQuery = usePortalClient(clientId, isClient && !inviteInProgress && !removed);

  if (removed) return <NoClient />;

  if (userQuery.isError) {
    return (
      <PageMessage
        title="We couldn't load this page"
        text="Check your connection and try again."
        actions={
          <button
            type="button"
            className={buttonClassName("primary")}
            onClick={() => void userQuery.refetch()}
          >
            Try again
          </button>
        }
      />
    );
  }

  const state = portalState({
    inviteInProgress,
    user: userQuery.data,
    routeClientId: clientId,
    client: { status: clientQuery.status, data: clientQuery.data },
  });

  switch (state.kind) {
    case "processing":
      return <CenteredSpinner />;
    case "missing_auth":
      return (
        <PageMessage
          title="Invite link needed"
          text="Missing user or invite token. Please try again."
        >
          <SignInLinkRequest />
        </PageMessage>
      );
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

function NoClient() {
  return <PageMessage title="Invalid client" text="This client conversation was not found." />;
}
