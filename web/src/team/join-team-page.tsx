import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TFunction } from "i18next";
import { Trans, useTranslation } from "react-i18next";
import { Link, useNavigate, useParams } from "react-router";
import { withNextPath } from "../../../shared/next-path";
import type { TeamInviteLookup } from "../../../shared/schemas/team";
import type { User } from "../../../shared/schemas/user";
import { ApiError, apiGet, apiPost, serverMessage } from "../api/client";
import { logout, setCurrentUser, useCurrentUser } from "../api/current-user";
import { queryKeys } from "../api/query-keys";
import { AuthLayout } from "../auth/auth-layout";
import { GoogleSignIn } from "../auth/google-sign-in";
import { Alert } from "../ui/alert";
import { Button, buttonClassName } from "../ui/button";
import { PageMessage } from "../ui/page-message";
import { CenteredSpinner } from "../ui/spinner";
import { useToast } from "../ui/toast";
import "./join-team.css";

/**
 * Names and emails go into <Trans> texts escaped, so that a "<" or "&" in them stays text; the
 * text nodes are unescaped again when rendered.
 */
const ESCAPED_VALUES = { interpolation: { escapeValue: true } };

/** Who invited whom to what, as one sentence per role (a translation may inflect the role). */
function invitedText(t: TFunction, invite: TeamInviteLookup): string {
  const values = { inviter: invite.invitedByName, workspace: invite.workspaceName };
  return invite.role === "admin"
    ? t("{{inviter}} invited you to join {{workspace}} on ClientDesk as Admin.", values)
    : t("{{inviter}} invited you to join {{workspace}} on ClientDesk as Member.", values);
}

/** /team/invite/{token}: a team invite's page, signed in or not (issue 26). */
export function JoinTeamPage() {
  const { token = "" } = useParams();
  const user = useCurrentUser();
  const { t } = useTranslation("dashboard");
  const invite = useQuery({
    queryKey: queryKeys.teamInvite(token),
    queryFn: () => apiGet<TeamInviteLookup>(`/api/team/invites/${encodeURIComponent(token)}`),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });
  if (invite.isPending || user.isPending) return <CenteredSpinner />;
  if (invite.isError) {
    const gone = invite.error instanceof ApiError && invite.error.status === 404;
    return (
      <PageMessage
        title={gone ? t("This team invite is no longer valid") : t("We couldn't load this invite")}
        text={
          gone
            ? t(
                "It may have expired, been used or been withdrawn. Ask whoever invited you for a new one.",
              )
            : serverMessage(invite.error, t("Check your connection and try again."))
        }
        actions={
          gone ? (
            <Link to="/" className={buttonClassName("primary")}>
              {t("Go to ClientDesk")}
            </Link>
          ) : (
            <Button onClick={() => void invite.refetch()}>{t("Try again")}</Button>
          )
        }
      />
    );
  }
  const { workspaceName, email } = invite.data;
  return (
    <AuthLayout
      title={t("Join {{workspace}}", { workspace: workspaceName })}
      subtitle={invitedText(t, invite.data)}
    >
      {user.data ? (
        <SignedIn user={user.data} invite={invite.data} token={token} />
      ) : (
        <SignedOut email={email} here={`/team/invite/${token}`} />
      )}
    </AuthLayout>
  );
}

function SignedOut({ email, here }: { email: string; here: string }) {
  const withEmail = `${withNextPath("/auth", here)}&email=${encodeURIComponent(email)}`;
  const { t } = useTranslation("dashboard");
  return (
    <div className="join-team">
      <p className="join-team__text">
        <Trans
          t={t}
          i18nKey="This invite is for <0>{{email}}</0>. Create your account or sign in with that address, and you come back here to join."
          values={{ email }}
          components={[<strong key="email" />]}
          tOptions={ESCAPED_VALUES}
          shouldUnescape
        />
      </p>
      <Link to={`${withEmail}&tab=sign-up`} className={buttonClassName("primary", "lg", true)}>
        {t("Create your account")}
      </Link>
      <Link to={withEmail} className={buttonClassName("secondary", "lg", true)}>
        {t("Sign in")}
      </Link>
      <GoogleSignIn next={here} />
    </div>
  );
}

function SignedIn({
  user,
  invite,
  token,
}: {
  user: User;
  invite: TeamInviteLookup;
  token: string;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const { t } = useTranslation("dashboard");
  const join = useMutation({
    mutationFn: () => apiPost<User>(`/api/team/invites/${encodeURIComponent(token)}`),
    onSuccess: (joined) => {
      // Another workspace: whatever was cached of the old one goes.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.user[0] });
      setCurrentUser(queryClient, joined);
      toast({
        title: t("Welcome to {{workspace}}", { workspace: invite.workspaceName }),
        variant: "success",
      });
      navigate("/", { replace: true });
    },
    onError: (error) =>
      toast({
        title: t("Could not join the team"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });
  const signOut = useMutation({ mutationFn: () => logout(queryClient) });
  const otherAddress = user.email.toLowerCase() !== invite.email;

  if (user.role !== "owner") {
    return <Alert variant="destructive" title={t("Client accounts cannot join a team")} />;
  }
  return (
    <div className="join-team">
      <p className="join-team__text">
        <Trans
          t={t}
          i18nKey="You are signed in as <0>{{email}}</0>."
          values={{ email: user.email }}
          components={[<strong key="email" />]}
          tOptions={ESCAPED_VALUES}
          shouldUnescape
        />
      </p>
      {otherAddress ? (
        <>
          <Alert title={t("This invite is for {{email}}", { email: invite.email })}>
            {t("Sign out, then sign in or create an account with that address.")}
          </Alert>
          <Button
            variant="secondary"
            fullWidth
            size="lg"
            loading={signOut.isPending}
            onClick={() => signOut.mutate()}
          >
            {t("Sign out")}
          </Button>
        </>
      ) : (
        <Button fullWidth size="lg" loading={join.isPending} onClick={() => join.mutate()}>
          {join.isPending
            ? t("Joining...")
            : t("Join {{workspace}}", { workspace: invite.workspaceName })}
        </Button>
      )}
      <Link to="/" className={buttonClassName("ghost", "md", true)}>
        {t("Not now")}
      </Link>
    </div>
  );
}
