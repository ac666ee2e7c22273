import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useSearchParams } from "react-router";
import { safeNextPath } from "../../../shared/next-path";
import { useCurrentUser } from "../api/current-user";
import { useReportTimeZone } from "../api/time-zone";
import { Button } from "../ui/button";
import { FullPageRedirect } from "../ui/full-page-redirect";
import { CenteredSpinner } from "../ui/spinner";
import { PageMessage } from "../ui/page-message";

function UserLoadError({ retry }: { retry: () => void }) {
  const { t } = useTranslation("common");
  return (
    <PageMessage
      title={t("We couldn't load your account")}
      text={t("Check your connection and try again.")}
      actions={<Button onClick={retry}>{t("Try again")}</Button>}
    />
  );
}

/** Owner-only pages: a spinner while the user loads; anyone who is not an owner goes to /auth. */
export function RequireOwner({ children }: { children: ReactNode }) {
  const { data: user, isPending, isLoadingError, refetch } = useCurrentUser();
  useReportTimeZone(user?.role === "owner" ? user : null);
  if (isPending) return <CenteredSpinner />;
  // A failed refetch keeps the loaded user (offline): only a first load that failed is shown.
  if (isLoadingError) return <UserLoadError retry={() => void refetch()} />;
  if (user?.role !== "owner") return <Navigate to="/auth" replace />;
  return children;
}

/**
 * /auth for someone already signed in: an owner goes to the dashboard (or to `next`, e.g. the
 * team invite that sent them here). A client user has no
 * dashboard (it would send them straight back here), so they go to their own conversation.
 */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const { data: user, isPending } = useCurrentUser();
  const [searchParams] = useSearchParams();
  if (isPending) return <CenteredSpinner />;
  if (user?.role === "owner") {
    return <Navigate to={safeNextPath(searchParams.get("next")) ?? "/"} replace />;
  }
  if (user?.role === "client" && user.clientId) {
    return <FullPageRedirect to={`/client/${encodeURIComponent(user.clientId)}`} />;
  }
  return children;
}
