import { useCurrentUser } from "../api/current-user";
import { FullPageRedirect } from "../ui/full-page-redirect";
import { PageMessage } from "../ui/page-message";
import { CenteredSpinner } from "../ui/spinner";
import { SignInLinkRequest } from "./sign-in-link-request-lazy";

/**
 * Where a client lands after logging out. Clients have no password, so the way back in is a
 * sign-in link by email (or a new invite link from the owner), not the owner's /auth page.
 */
export function SignedOutPage() {
  const { data: user, isPending } = useCurrentUser();
  if (isPending) return <CenteredSpinner />;
  if (user?.role === "client" && user.clientId) {
    return <FullPageRedirect to={`/client/${encodeURIComponent(user.clientId)}`} />;
  }
  return (
    <PageMessage
      title="You're signed out"
      text="To open your conversation again, use a sign-in link. We email it to the address your invite went to."
    >
      <SignInLinkRequest />
    </PageMessage>
  );
}
