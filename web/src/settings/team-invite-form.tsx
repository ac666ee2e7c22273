import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import type { InvitedRole, IssuedTeamInvite } from "../../../shared/schemas/team";
import { apiPost, serverMessage } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { type Seats, seatsFull } from "../billing/seats-query";
import { Button } from "../ui/button";
import { copyText } from "../ui/clipboard";
import { Field, TextField } from "../ui/field";
import { useToast } from "../ui/toast";
import { useRoleHints, useRoleLabels } from "./team-roles";
import { SeatPrompt } from "./team-seats";

/**
 * Owner and admins: invites an address; the fresh invite's link can be copied once. When every
 * seat is taken the Send button gives way to the seat prompt (issue 26); once a seat is bought
 * the button is back, focused, with what was typed kept.
 */
export function TeamInviteForm({ seats, isOwner }: { seats?: Seats; isOwner: boolean }) {
  const { t } = useTranslation("settings");
  const roleLabels = useRoleLabels();
  const roleHints = useRoleHints();
  const [email, setEmail] = useState("");
  const [seatAdded, setSeatAdded] = useState(false);
  const sendRef = useRef<HTMLButtonElement>(null);
  const full = seats !== undefined && seatsFull(seats);
  useEffect(() => {
    if (seatAdded && !full) {
      sendRef.current?.focus();
      setSeatAdded(false);
    }
  }, [seatAdded, full]);
  const [role, setRole] = useState<InvitedRole>("member");
  const [fresh, setFresh] = useState<IssuedTeamInvite | null>(null);
  const queryClient = useQueryClient();
  const toast = useToast();

  const invite = useMutation({
    mutationFn: () => apiPost<IssuedTeamInvite>("/api/team/members", { email, role }),
    onSuccess: (answer) => {
      setFresh(answer);
      setEmail("");
      void queryClient.invalidateQueries({ queryKey: queryKeys.teamInvites });
      void queryClient.invalidateQueries({ queryKey: queryKeys.teamAudit });
      void queryClient.invalidateQueries({ queryKey: queryKeys.seats });
      toast({
        title: t("Invite sent"),
        description: t("We emailed an invite to {{email}}.", { email: answer.email }),
        variant: "success",
      });
    },
    onError: (error) => {
      // Full since the count was read (another invite): the prompt to add a seat appears.
      void queryClient.invalidateQueries({ queryKey: queryKeys.seats });
      toast({
        title: t("Could not send the invite"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      });
    },
  });

  const copy = async (url: string) => {
    const copied = await copyText(url);
    toast(
      copied
        ? { title: t("Invite link copied"), variant: "success" }
        : { title: t("Could not copy the link"), description: url, variant: "destructive" },
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate();
  };

  return (
    <section className="settings-section" aria-labelledby="team-invite-title">
      <h3 id="team-invite-title" className="settings-section__title">
        {t("Invite a team member")}
      </h3>
      <form className="team-invite-form" onSubmit={submit}>
        <TextField
          label={t("Email")}
          type="email"
          autoComplete="off"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          placeholder={t("colleague@company.com")}
        />
        <Field label={t("Role")} hint={roleHints[role]}>
          {(control) => (
            <select
              {...control}
              className="input team-select"
              value={role}
              onChange={(event) => setRole(event.target.value as InvitedRole)}
            >
              <option value="member">{roleLabels.member}</option>
              <option value="admin">{roleLabels.admin}</option>
            </select>
          )}
        </Field>
        <div className="team-invite-form__submit">
          {full ? (
            <SeatPrompt
              seats={seats}
              isOwner={isOwner}
              onAdded={() => setSeatAdded(true)}
              takeFocus={invite.isSuccess}
            />
          ) : (
            <Button ref={sendRef} type="submit" loading={invite.isPending}>
              {invite.isPending ? t("Sending...") : t("Send invite")}
            </Button>
          )}
        </div>
      </form>
      {fresh && (
        <div className="team-fresh-invite">
          <span className="team-fresh-invite__text">
            <Trans
              t={t}
              i18nKey="Invite link for <0>{{email}}</0>: it works once, for 7 days."
              values={{ email: fresh.email }}
              components={[<strong key="email" />]}
            />
          </span>
          <Button variant="secondary" size="sm" onClick={() => void copy(fresh.inviteUrl)}>
            {t("Copy link")}
          </Button>
        </div>
      )}
    </section>
  );
}
