import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { serverMessage } from "../api/client";
import { logout, useCurrentUser } from "../api/current-user";
import { Button, buttonClassName } from "../ui/button";
import { PageMessage } from "../ui/page-message";
import { useToast } from "../ui/toast";

interface InviteConflictProps {
  /** The server's 409: its message names who is signed in (or says it is the owner's own link). */
  refusal: { reason: "own" | "signed_in"; message: string };
  /** Follows the invite again, once this browser is signed out. */
  onSignedOut: () => void;
}

/**
 * An invite link opened where someone else is signed in: it never swaps them (loaded only then,
 * outside the portal's first load). The owner of that client is told it is their own client's
 * link; anyone else reads who is signed in and may sign out and open the invite.
 */
export default function InviteConflict({ refusal, onSignedOut }: InviteConflictProps) {
  const { t } = useTranslation("portal");
  const queryClient = useQueryClient();
  const toast = useToast();
  const { data: user } = useCurrentUser();
  const signOut = useMutation({
    mutationFn: () => logout(queryClient),
    onSuccess: onSignedOut,
    onError: (error) =>
      toast({
        title: t("Couldn't sign out"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });
  const own = refusal.reason === "own";
  const back =
    user?.role === "client" && user.clientId ? (
      <a
        className={buttonClassName("secondary")}
        href={`/client/${encodeURIComponent(user.clientId)}`}
      >
        {t("Back to your conversation")}
      </a>
    ) : (
      <a className={buttonClassName(own ? "primary" : "secondary")} href="/">
        {t("Go to your dashboard")}
      </a>
    );
  if (own) {
    return (
      <PageMessage
        title={t("This is your client's invite link")}
        text={refusal.message}
        actions={back}
      />
    );
  }
  return (
    <PageMessage
      title={t("You're already signed in")}
      text={refusal.message}
      actions={
        <>
          <Button loading={signOut.isPending} onClick={() => signOut.mutate()}>
            {t("Sign out and open this invite")}
          </Button>
          {back}
        </>
      }
    />
  );
}
