import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { AcceptInviteResponse } from "../../../shared/schemas/clients";
import { ApiError, apiPost, serverMessage } from "../api/client";
import { fetchCurrentUser, setCurrentUser } from "../api/current-user";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { BrandedPage } from "./branded-page";
import type { BrandingLookup } from "./portal-branding-query";
import { navigate, usePortalRoute } from "./portal-location";
import { rememberedClient } from "./remembered-client";
import { SignInLinkRequest } from "./sign-in-link-request-lazy";

/**
 * /client/sign-in?token=...: the page a mailed sign-in link opens. The link is used only when
 * the person presses the button, so mail scanners that open links do not use it up. The
 * mailed link names its conversation (?client=) for the owner's branding.
 */
export function SignInLinkPage() {
  const { t } = useTranslation("portal");
  const { searchParams } = usePortalRoute();
  const token = searchParams.get("token") ?? "";
  const clientId = searchParams.get("client") ?? rememberedClient();
  const lookup: BrandingLookup = clientId ? { client: clientId } : null;
  const queryClient = useQueryClient();

  const signIn = useMutation({
    mutationFn: () => apiPost<AcceptInviteResponse>("/api/client-sign-in", { token }),
    onSuccess: async (answer) => {
      setCurrentUser(queryClient, await fetchCurrentUser());
      navigate(`/client/${encodeURIComponent(answer.clientId)}`, { replace: true });
    },
  });

  if (signIn.isError || !token) {
    const invalid = t("This sign-in link is invalid or has expired.");
    const message =
      signIn.error instanceof ApiError
        ? serverMessage(signIn.error, invalid)
        : token
          ? t("Something went wrong. Please try again.")
          : invalid;
    return (
      <BrandedPage lookup={lookup} title={t("Sign-in link not valid")}>
        <div className="sign-in-link">
          <Alert variant="destructive" title={message} />
        </div>
        <SignInLinkRequest />
      </BrandedPage>
    );
  }

  return (
    <BrandedPage
      lookup={lookup}
      title={t("Open your conversation")}
      text={t("This link signs you in once and expires 15 minutes after it was sent.")}
    >
      <div className="branded-page__actions">
        <Button
          size="lg"
          loading={signIn.isPending || signIn.isSuccess}
          onClick={() => signIn.mutate()}
        >
          {signIn.isPending || signIn.isSuccess ? t("Signing in...") : t("Sign in")}
        </Button>
      </div>
    </BrandedPage>
  );
}
