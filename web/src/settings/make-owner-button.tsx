import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
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
      toast({ title: `${owner.fullName} is now the workspace's owner`, variant: "success" });
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
        title: "The workspace was not handed over",
        description: serverMessage(error, "Please try again"),
        variant: "destructive",
      }),
  });
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        aria-label={`Make ${member.fullName} the owner`}
        onClick={() => setAsking(true)}
      >
        Make owner
      </Button>
      {asking && (
        <PasswordConfirmDialog
          title={`Make ${member.fullName} the owner?`}
          action="hand over the workspace"
          submitLabel="Make owner"
          pendingLabel="Handing over..."
          pending={handOver.isPending}
          onConfirm={(password) => handOver.mutate(password)}
          onClose={() => setAsking(false)}
        >
          <p>
            {member.fullName} becomes the workspace's owner: its plan and billing, its branding, and
            the right to delete it go to them. You stay in the team as an admin.
          </p>
        </PasswordConfirmDialog>
      )}
    </>
  );
}
