import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
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

const ROLE_NAMES = { admin: "Admin", member: "Member" } as const;

/** /team/invite/{token}: a team invite's page, signed in or not (issue 26). */
export function JoinTeamPage() {
  const { token = "" } = useParams();
  const user = useCurrentUser();
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
        title={gone ? "This team invite is no longer valid" : "We couldn't load this invite"}
        text={
          gone
            ? "It may have expired, been used or been withdrawn. Ask whoever invited you for a new one."
            : serverMessage(invite.error, "Check your connection and try again.")
        }
        actions={
          gone ? (
            <Link to="/" className={buttonClassName("primary")}>
              Go to ClientDesk
            </Link>
          ) : (
            <Button onClick={() => void invite.refetch()}>Try again</Button>
          )
        }
      />
    );
  }
  const { workspaceName, invitedByName, email, role } = invite.data;
  return (
    <AuthLayout
      title={`Join ${workspaceName}`}
      subtitle={`${invitedByName} invited you to join ${workspaceName} on ClientDesk as ${ROLE_NAMES[role]}.`}
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
  return (
    <div className="join-team">
      <p className="join-team__text">
        This invite is for <strong>{email}</strong>. Create your account or sign in with that
        address, and you come back here to join.
      </p>
      <Link to={`${withEmail}&tab=sign-up`} className={buttonClassName("primary", "lg", true)}>
        Create your account
      </Link>
      <Link to={withEmail} className={buttonClassName("secondary", "lg", true)}>
        Sign in
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
  const join = useMutation({
    mutationFn: () => apiPost<User>(`/api/team/invites/${encodeURIComponent(token)}`),
    onSuccess: (joined) => {
      // Another workspace: whatever was cached of the old one goes.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.user[0] });
      setCurrentUser(queryClient, joined);
      toast({ title: `Welcome to ${invite.workspaceName}`, variant: "success" });
      navigate("/", { replace: true });
    },
    onError: (error) =>
      toast({
        title: "Could not join the team",
        description: serverMessage(error, "Please try again"),
        variant: "destructive",
      }),
  });
  const signOut = useMutation({ mutationFn: () => logout(queryClient) });
  const otherAddress = user.email.toLowerCase() !== invite.email;

  if (user.role !== "owner") {
    return <Alert variant="destructive" title="Client accounts cannot join a team" />;
  }
  return (
    <div className="join-team">
      <p className="join-team__text">
        You are signed in as <strong>{user.email}</strong>.
      </p>
      {otherAddress ? (
        <>
          <Alert title={`This invite is for ${invite.email}`}>
            Sign out, then sign in or create an account with that address.
          </Alert>
          <Button
            variant="secondary"
            fullWidth
            size="lg"
            loading={signOut.isPending}
            onClick={() => signOut.mutate()}
          >
            Sign out
          </Button>
        </>
      ) : (
        <Button fullWidth size="lg" loading={join.isPending} onClick={() => join.mutate()}>
          {join.isPending ? "Joining..." : `Join ${invite.workspaceName}`}
        </Button>
      )}
      <Link to="/" className={buttonClassName("ghost", "md", true)}>
        Not now
      </Link>
    </div>
  );
}
