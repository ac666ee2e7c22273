import { useCurrentUser } from "../api/current-user";
import { FullPageRedirect } from "../ui/full-page-redirect";
import { CenteredSpinner } from "../ui/spinner";
import { ClientSignInPage } from "./client-sign-in-page";
import { rememberedClient } from "./remembered-client";

/**
 * Where a client lands after logging out. Clients have no password, so the way back in is a
 * sign-in link by email (or a new invite link from the owner), not the owner's /auth page.
 * It wears the branding of the conversation this browser last opened.
 */
export function SignedOutPage() {
  const { data: user, isPending } = useCurrentUser();
  if (isPending) return <CenteredSpinner />;
  if (user?.role === "client" && user.clientId) {
    return <FullPageRedirect to={`/client/${encodeURIComponent(user.clientId)}`} />;
  }
  const clientId = rememberedClient();
  return <ClientSignInPage reason="signed-out" lookup={clientId ? { client: clientId } : null} />;
}
