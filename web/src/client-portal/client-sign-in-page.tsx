import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { BrandedPage } from "./branded-page";
import type { BrandingLookup } from "./portal-branding-query";
import { SignInLinkRequest } from "./sign-in-link-request-lazy";

/**
 * Why the client is asked to sign in: a used (or replaced) invite link, a link that never
 * existed, a link that could not be processed, a visit with no session, or a logout.
 */
export type SignInReason = "used" | "invalid" | "failed" | "no-session" | "signed-out";

/** The spec's notice for an invite link that does not exist. */
export const INVALID_INVITE = "This invite link is invalid or has already been used.";

const TEXTS: Record<SignInReason, { title: string; text: string }> = {
  used: {
    title: "This link was already used",
    text: "Invite links work once. To open your conversation again, we email you a sign-in link: enter the address your invite went to.",
  },
  invalid: {
    title: "Sign in to your conversation",
    text: "We email you a link that signs you in: enter the address your invite went to.",
  },
  failed: {
    title: "Error processing invite",
    text: "There was an error processing your invite.",
  },
  "no-session": {
    title: "Sign in to your conversation",
    text: "Clients sign in with a link we email them. Enter the address your invite went to.",
  },
  "signed-out": {
    title: "You're signed out",
    text: "To open your conversation again, use a sign-in link. We email it to the address your invite went to.",
  },
};

interface ClientSignInPageProps {
  reason: SignInReason;
  lookup: BrandingLookup;
}

/**
 * The portal's sign-in page: clients have no password, so the way in is "Email me a sign-in
 * link" (or a new invite from their owner). Never the owners' /auth page.
 */
export function ClientSignInPage({ reason, lookup }: ClientSignInPageProps) {
  const { title, text } = TEXTS[reason];
  return (
    <BrandedPage lookup={lookup} title={title} text={text}>
      {reason === "invalid" && (
        <div className="sign-in-link">
          <Alert variant="destructive" title={INVALID_INVITE} />
        </div>
      )}
      {reason === "failed" && (
        <div className="branded-page__actions">
          <Button onClick={() => window.location.reload()}>Try again</Button>
        </div>
      )}
      {/* The page's text already says what the form is for. */}
      <SignInLinkRequest intro={false} />
      <p className="branded-page__help">
        Never joined, or the link still does not work? Ask the person who invited you for a new
        invite link.
      </p>
    </BrandedPage>
  );
}
