import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { SuccessResponse } from "../../../shared/schemas/common";
import type { InvitedRole, TeamMember } from "../../../shared/schemas/team";
import { apiDelete, apiPatch, serverMessage } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { Avatar } from "../ui/avatar";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { useToast } from "../ui/toast";
import { MakeOwnerButton } from "./make-owner-button";
import { useRoleLabels } from "./team-roles";

interface TeamMemberRowProps {
  member: TeamMember;
  isYou: boolean;
  /** The viewer may change this person's role and remove them (owner or admin; not the owner, not themselves). */
  manageable: boolean;
  /** The viewer owns the workspace and may hand it to this person. */
  canHandOver: boolean;
}

export function TeamMemberRow({ member, isYou, manageable, canHandOver }: TeamMemberRowProps) {
  const { t } = useTranslation("settings");
  const roleLabels = useRoleLabels();
  const [confirming, setConfirming] = useState(false);
  const queryClient = useQueryClient();
  const toast = useToast();
  const failed = (title: string) => (error: unknown) =>
    toast({
      title,
      description: serverMessage(error, t("Please try again")),
      variant: "destructive",
    });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.teamAudit });
    void queryClient.invalidateQueries({ queryKey: queryKeys.seats });
    return queryClient.invalidateQueries({ queryKey: queryKeys.teamMembers });
  };

  const changeRole = useMutation({
    mutationFn: (role: InvitedRole) =>
      apiPatch<TeamMember>(`/api/team/members/${encodeURIComponent(member.id)}`, { role }),
    onSuccess: (changed) => {
      void refresh();
      toast({
        title: t("Role changed"),
        description:
          changed.role === "admin"
            ? t("{{name}} is now an Admin.", { name: changed.fullName })
            : t("{{name}} is now a Member.", { name: changed.fullName }),
        variant: "success",
      });
    },
    onError: failed(t("Could not change the role")),
  });
  const remove = useMutation({
    mutationFn: () =>
      apiDelete<SuccessResponse>(`/api/team/members/${encodeURIComponent(member.id)}`),
    onSuccess: () => {
      setConfirming(false);
      void refresh();
      toast({
        title: t("{{name}} was removed from the team", { name: member.fullName }),
        variant: "success",
      });
    },
    onError: failed(t("Could not remove them")),
  });

  return (
    <li className="team-members__row">
      <Avatar name={member.fullName} imageUrl={member.profilePicture} size={36} />
      <span className="team-members__who">
        <span className="team-members__name">
          {member.fullName}
          {isYou && <span className="team-members__you"> {t("(you)")}</span>}
        </span>
        <span className="team-members__email">{member.email}</span>
      </span>
      {manageable && member.role !== "owner" ? (
        <span className="team-members__actions">
          <select
            className="input team-select team-select--compact"
            aria-label={t("Role of {{name}}", { name: member.fullName })}
            value={member.role}
            disabled={changeRole.isPending}
            onChange={(event) => changeRole.mutate(event.target.value as InvitedRole)}
          >
            <option value="member">{roleLabels.member}</option>
            <option value="admin">{roleLabels.admin}</option>
          </select>
          {canHandOver && <MakeOwnerButton member={member} />}
          <Button
            variant="ghost"
            size="sm"
            aria-label={t("Remove {{name}}", { name: member.fullName })}
            onClick={() => setConfirming(true)}
          >
            {t("Remove")}
          </Button>
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            title={t("Remove {{name}}?", { name: member.fullName })}
            confirmLabel={t("Remove")}
            busyLabel={t("Removing...")}
            busy={remove.isPending}
            destructive
            onConfirm={() => remove.mutate()}
          >
            {t(
              "They leave this workspace at once and are signed out on every device. Their account stays (in a workspace of their own), and what they wrote stays under their name.",
            )}
          </ConfirmDialog>
        </span>
      ) : (
        <span className="team-members__role">{roleLabels[member.role]}</span>
      )}
    </li>
  );
}
