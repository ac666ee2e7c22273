import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ClientAssignees } from "../../../shared/schemas/clients";
import type { TeamMember, TeamRole } from "../../../shared/schemas/team";
import { apiPut, serverMessage } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { Avatar } from "../ui/avatar";
import { Button } from "../ui/button";
import { Dialog, DialogFooter } from "../ui/dialog";
import { useToast } from "../ui/toast";
import type { OwnerClient } from "./clients-query";

interface AssignDialogProps {
  client: OwnerClient;
  /** Who handles it now. */
  assignees: ClientAssignees;
  team: TeamMember[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Who handles a client (issue 26): the people assigned to it and its lead. */
export function AssignDialog({ client, assignees, team, open, onOpenChange }: AssignDialogProps) {
  const [chosen, setChosen] = useState<string[]>(assignees.assigneeIds);
  const [lead, setLead] = useState<string | null>(assignees.leadUserId);
  const queryClient = useQueryClient();
  const toast = useToast();
  const { t } = useTranslation("dashboard");
  const leadName = useId();
  const roleLabels: Record<TeamRole, string> = {
    owner: t("Owner"),
    admin: t("Admin"),
    member: t("Member"),
  };

  // Each opening starts from what is saved.
  useEffect(() => {
    if (!open) return;
    setChosen(assignees.assigneeIds);
    setLead(assignees.leadUserId);
  }, [open, assignees]);

  const save = useMutation({
    mutationFn: () =>
      apiPut<ClientAssignees>(`/api/clients/${encodeURIComponent(client.id)}/assignees`, {
        userIds: chosen,
        leadUserId: lead !== null && chosen.includes(lead) ? lead : (chosen[0] ?? null),
      }),
    onSuccess: (saved) => {
      onOpenChange(false);
      toast({ title: t("Assignment saved"), variant: "success" });
      queryClient.setQueryData(queryKeys.assignees(client.id), saved);
    },
    onError: (error) =>
      toast({
        title: t("Couldn't save the assignment"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });

  const toggle = (id: string, on: boolean) => {
    setChosen((current) => (on ? [...current, id] : current.filter((other) => other !== id)));
    if (on && lead === null) setLead(id);
    if (!on && lead === id) setLead(null);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t("Who handles {{client}}?", { client: client.name })}
      description={t(
        "Members see only the clients assigned to them. The owner and admins see every client.",
      )}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        <ul className="assignees" aria-label={t("Team members")}>
          {team.map((member) => {
            const assigned = chosen.includes(member.id);
            return (
              <li key={member.id} className="assignees__row">
                <label className="assignees__who">
                  <input
                    type="checkbox"
                    checked={assigned}
                    onChange={(event) => toggle(member.id, event.target.checked)}
                  />
                  <Avatar name={member.fullName} imageUrl={member.profilePicture} size={32} />
                  <span className="assignees__name">
                    {member.fullName}
                    <span className="assignees__role">{roleLabels[member.role]}</span>
                  </span>
                </label>
                <label className="assignees__lead">
                  <input
                    type="radio"
                    name={leadName}
                    checked={assigned && lead === member.id}
                    disabled={!assigned}
                    onChange={() => setLead(member.id)}
                    aria-label={t("{{name}} leads", { name: member.fullName })}
                  />
                  {t("Lead")}
                </label>
              </li>
            );
          })}
        </ul>
        <DialogFooter>
          <Button type="button" variant="secondary" onClick={() => onOpenChange(false)}>
            {t("Cancel")}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t("Save")}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
