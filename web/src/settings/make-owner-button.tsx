import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { TeamMember } from "../../../shared/schemas/team";
import { apiPost, serverMessage } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { Button } from "../ui/button";
import { useToast } from "../ui/toast";
import { PasswordConfirmDialog } from "./password-confirm-dialog";

/**
 * The owner hands the workspace to one of its people (POST /api/team/owner), confirmed with
 * their password: the plan, billing and branding go with it, and the owner stays as an admin.
 */
export function MakeOwnerButton({ member }: { member: TeamMember }) {
  const { t } = useTranslation("settings");
  const [asking, setAsking] = useState(false);
  const queryClient = useQueryClient();
  const toast = useToast();
  const handOver = useMutation({
    mutationFn: (password: string | undefined) =>
      apiPost<TeamMember>("/api/team/owner", {
        userId: member.id,
        ...(password === undefined ? {} : { password }),
      }),
    onSuccess: (owner) => {
      setAsking(false);
      toast({
        title: t("{{name}} is now the workspace's owner", { name: owner.fullName }),
        variant: "success",
      });
      // Who may do what, the plan and the seats all changed hands.
      for (const key of [
        queryKeys.teamMembers,
        queryKeys.teamAudit,
        queryKeys.seats,
        queryKeys.user,
        queryKeys.accountTier,
        queryKeys.subscriptionStatus,
      ])
        void queryClient.invalidateQueries({ queryKey: key });
    },
    onError: (error) =>
      toast({
        title: t("The workspace was not handed over"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        aria-label={t("Make {{name}} the owner", { name: member.fullName })}
        onClick={() => setAsking(true)}
      >
        {t("Make owner")}
      </Button>
      {asking && (
        <PasswordConfirmDialog
          title={t("Make {{name}} the owner?", { name: member.fullName })}
          googleNote={t(
            "Your account signs in with Google: to hand over the workspace, your last sign-in must be less than 10 minutes ago. If it is older, sign out and sign in with Google again first.",
          )}
          submitLabel={t("Make owner")}
          pendingLabel={t("Handing over...")}
          pending={handOver.isPending}
          onConfirm={(password) => handOver.mutate(password)}
          onClose={() => setAsking(false)}
        >
          <p>
            {t(
              "{{name}} becomes the workspace's owner: its plan and billing, its branding, and the right to delete it go to them. You stay in the team as an admin.",
              { name: member.fullName },
            )}
          </p>
        </PasswordConfirmDialog>
      )}
    </>
  );
}
