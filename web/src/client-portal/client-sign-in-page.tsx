import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
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

/** The page's title and text for each reason, in the reader's language. */
function texts(reason: SignInReason, t: TFunction<"portal">): { title: string; text: string } {
  switch (reason) {
    case "used":
      return {
        title: t("This link was already used"),
        text: t(
          "Invite links work once. To open your conversation again, we email you a sign-in link: enter the address your invite went to.",
        ),
      };
    case "invalid":
      return {
        title: t("Sign in to your conversation"),
        text: t("We email you a link that signs you in: enter the address your invite went to."),
      };
    case "failed":
      return {
        title: t("Error processing invite"),
        text: t("There was an error processing your invite."),
      };
    case "no-session":
      return {
        title: t("Sign in to your conversation"),
        text: t(
          "Clients sign in with a link we email them. Enter the address your invite went to.",
        ),
      };
    case "signed-out":
      return {
        title: t("You're signed out"),
        text: t(
          "To open your conversation again, use a sign-in link. We email it to the address your invite went to.",
        ),
      };
  }
}

export interface ClientSignInPageProps {
  reason: SignInReason;
  lookup: BrandingLookup;
}

/**
 * The portal's sign-in page: clients have no password, so the way in is "Email me a sign-in
 * link" (or a new invite from their owner). Never the owners' /auth page.
 */
export function ClientSignInPage({ reason, lookup }: ClientSignInPageProps) {
  const { t } = useTranslation("portal");
  const { title, text } = texts(reason, t);
  return (
    <BrandedPage lookup={lookup} title={title} text={text}>
      {reason === "invalid" && (
        <div className="sign-in-link">
          {/* The spec's notice for an invite link that does not exist. */}
          <Alert
            variant="destructive"
            title={t("This invite link is invalid or has already been used.")}
          />
        </div>
      )}
      {reason === "failed" && (
        <div className="branded-page__actions">
          <Button onClick={() => window.location.reload()}>{t("Try again")}</Button>
        </div>
      )}
      {/* The page's text already says what the form is for. */}
      <SignInLinkRequest intro={false} />
      <p className="branded-page__help">
        {t(
          "Never joined, or the link still does not work? Ask the person who invited you for a new invite link.",
        )}
      </p>
    </BrandedPage>
  );
}
