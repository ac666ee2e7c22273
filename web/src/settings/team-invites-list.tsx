import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { SuccessResponse } from "../../../shared/schemas/common";
import type { TeamInvite } from "../../../shared/schemas/team";
import { apiDelete, apiGet, serverMessage } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { dateTimeFormat } from "../i18n/formats";
import { Button } from "../ui/button";
import { useToast } from "../ui/toast";
import { useRoleLabels } from "./team-roles";

/** Owner and admins: invites not used yet, each with a Withdraw button. */
export function TeamInvitesList() {
  const { t } = useTranslation("settings");
  const roleLabels = useRoleLabels();
  const queryClient = useQueryClient();
  const toast = useToast();
  const invites = useQuery({
    queryKey: queryKeys.teamInvites,
    queryFn: () => apiGet<TeamInvite[]>("/api/team/invites"),
  });
  const withdraw = useMutation({
    mutationFn: (invite: TeamInvite) =>
      apiDelete<SuccessResponse>(`/api/team/invites/${encodeURIComponent(invite.id)}`),
    onSuccess: (_answer, invite) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.teamInvites });
      void queryClient.invalidateQueries({ queryKey: queryKeys.seats });
      toast({ title: t("Invite withdrawn"), description: invite.email, variant: "success" });
    },
    onError: (error) =>
      toast({
        title: t("Could not withdraw the invite"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });
  // Nothing to say while loading or without any: the form above is what matters then.
  if (!invites.data?.length) return null;
  const dayFormat = dateTimeFormat({ day: "numeric", month: "short" });
  return (
    <section className="settings-section" aria-labelledby="team-invites-title">
      <h3 id="team-invites-title" className="settings-section__title">
        {t("Pending invites")}
      </h3>
      <ul className="team-members" aria-label={t("Pending invites")}>
        {invites.data.map((invite) => (
          <li key={invite.id} className="team-members__row">
            <span className="team-members__who">
              <span className="team-members__name">{invite.email}</span>
              <span className="team-members__email">
                {t("{{role}} · expires {{date}}", {
                  role: roleLabels[invite.role],
                  date: dayFormat.format(new Date(invite.expiresAt)),
                })}
              </span>
            </span>
            <Button
              variant="secondary"
              size="sm"
              loading={withdraw.isPending && withdraw.variables?.id === invite.id}
              aria-label={t("Withdraw the invite to {{email}}", { email: invite.email })}
              onClick={() => withdraw.mutate(invite)}
            >
              {t("Withdraw")}
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
