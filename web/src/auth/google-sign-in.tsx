import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { withNextPath } from "../../../shared/next-path";
import type { GoogleAvailableResponse } from "../../../shared/schemas/auth";
import { apiGet } from "../api/client";
import { fetchCurrentUser, setCurrentUser } from "../api/current-user";
import { queryKeys } from "../api/query-keys";
import { usePlatform } from "../platform/platform-context";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";

/** Any failure (e.g. an older server without the endpoint) means Google is not offered. */
async function fetchGoogleAvailable(): Promise<boolean> {
  try {
    const answer = await apiGet<GoogleAvailableResponse>("/api/auth/google-available");
    return answer.available === true;
  } catch {
    return false;
  }
}

/**
 * The Google button and the divider above it; nothing at all when Google sign-in is off.
 * `next`: a path of this site to come back to once signed in (the server keeps it sealed).
 */
export function GoogleSignIn({ next = null }: { next?: string | null }) {
  const platform = usePlatform();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { t } = useTranslation("auth");
  /** The desktop app's sign-in in the system browser: waiting for it, or its failure. */
  const [inBrowser, setInBrowser] = useState<"idle" | "waiting" | "failed">("idle");
  const { data: available } = useQuery({
    queryKey: queryKeys.googleAvailable,
    queryFn: fetchGoogleAvailable,
  });
  if (!available) return null;

  const signIn = async () => {
    if (!platform.signInWithGoogle) {
      window.location.assign(`${platform.serverUrl}${withNextPath("/auth/google", next)}`);
      return;
    }
    setInBrowser("waiting");
    const outcome = await platform.signInWithGoogle();
    if (outcome === "signed-in") {
      setCurrentUser(queryClient, await fetchCurrentUser().catch(() => null));
      navigate(next ?? "/", { replace: true });
      return;
    }
    setInBrowser(outcome === "failed" ? "failed" : "idle");
  };

  return (
    <>
      <div className="auth-divider">{t("or")}</div>
      {inBrowser === "waiting" ? (
        <div className="google-sign-in__waiting">
          <Alert title={t("Continue in your browser…")}>
            {t(
              "Finish signing in with Google in the browser window that opened, then come back here.",
            )}
          </Alert>
          <Button variant="ghost" fullWidth onClick={() => platform.cancelGoogleSignIn?.()}>
            {t("Cancel")}
          </Button>
        </div>
      ) : (
        <Button
          variant="secondary"
          fullWidth
          size="lg"
          icon={<GoogleIcon />}
          onClick={() => void signIn()}
        >
          {t("Sign in with Google")}
        </Button>
      )}
      {inBrowser === "failed" && (
        <div className="google-sign-in__failed">
          <Alert variant="destructive" title={t("Google sign-in failed. Try again.")} />
        </div>
      )}
    </>
  );
}

/** Google's mark: kept with the owner-only sign-in button so the client portal does not load it. */
const GoogleIcon = () => (
  <svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true" focusable="false">
    <path
      fill="#FFC107"
      d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z"
    />
    <path
      fill="#FF3D00"
      d="m6.3 14.7 6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
    />
    <path
      fill="#4CAF50"
      d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z"
    />
    <path
      fill="#1976D2"
      d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z"
    />
  </svg>
);
