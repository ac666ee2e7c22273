import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import type { UserChangedResponse } from "../../../shared/schemas/user";
import { apiPatch, serverMessage } from "../api/client";
import { type User, useCurrentUser } from "../api/current-user";
import { useMyTeamRole, useTeamMembers } from "../api/team-members";
import { Button } from "../ui/button";
import { TextField } from "../ui/field";
import { useToast } from "../ui/toast";
import { usePlatform } from "../platform/platform-context";
import { applyUserAnswer } from "./user-answer";

/** Web push for this browser; the desktop app has notifications of its own. */
const PushSettingsSection = lazy(() => import("../pwa/push-settings-section"));

const DEFAULT_DELAY_MINUTES = 5;

/** Spec: 1 to 60 minutes; an empty or non-numeric entry falls back to 5. */
function delayMinutes(value: string): number {
  const minutes = Number.parseInt(value, 10);
  return Number.isNaN(minutes) ? DEFAULT_DELAY_MINUTES : minutes;
}

export function NotificationsTab() {
  const { data: user } = useCurrentUser();
  const platform = usePlatform();
  if (!user) return null;
  return (
    <div className="settings-section-list">
      <NotificationsForm user={user} />
      {platform.kind === "web" && (
        <Suspense fallback={null}>
          <PushSettingsSection
            className="settings-section"
            headingLevel="h3"
            titleClassName="settings-section__title"
            hintClassName="settings-section__hint"
          />
        </Suspense>
      )}
    </div>
  );
}

/**
 * Who gets a client's emails in a team (issue 26): the people assigned to the client, else the
 * owner; the first answer stops them for everyone. Nothing for a workspace of one.
 */
function TeamEmailsHint() {
  const { t } = useTranslation("settings");
  const members = useTeamMembers();
  const role = useMyTeamRole();
  if (!role || (members.data?.length ?? 0) < 2) return null;
  return (
    <p className="settings-section__hint">
      {role === "owner"
        ? t(
            "In your team, the people assigned to a client get these emails; you get them for clients no one is assigned to. Once one of you answers, nobody else is emailed about it.",
          )
        : t(
            "In your team, you get these emails for the clients assigned to you. Once one of you answers, nobody else is emailed about it.",
          )}
    </p>
  );
}

function NotificationsForm({ user }: { user: User }) {
  const { t } = useTranslation("settings");
  const [delay, setDelay] = useState(String(user.emailNotificationDelay));
  const queryClient = useQueryClient();
  const toast = useToast();

  const save = useMutation({
    mutationFn: (emailNotificationDelay: number) =>
      apiPatch<UserChangedResponse>("/api/user/notification-settings", { emailNotificationDelay }),
    onSuccess: (answer, minutes) => {
      setDelay(String(minutes));
      applyUserAnswer(queryClient, answer);
      toast({ title: t("Notification settings updated successfully"), variant: "success" });
    },
    onError: (error) =>
      toast({
        title: t("Failed to update notification settings"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(delayMinutes(delay));
  };

  return (
    <form className="form-stack" onSubmit={submit}>
      <div className="settings-section">
        <h3 className="settings-section__title">{t("Email notifications")}</h3>
        <p className="settings-section__hint">
          {t(
            "When a client's message waits this long without a reply, we send you one email about it.",
          )}
        </p>
        <TeamEmailsHint />
      </div>
      <div className="delay-field">
        <TextField
          label={t("Notification delay (minutes)")}
          type="number"
          inputMode="numeric"
          min={1}
          max={60}
          step={1}
          value={delay}
          onChange={(event) => setDelay(event.target.value)}
          hint={t("Between 1 and 60 minutes. Default: 5.")}
        />
      </div>
      <div className="settings-actions">
        <Button type="submit" loading={save.isPending}>
          {save.isPending ? t("Saving...") : t("Save Settings")}
        </Button>
      </div>
    </form>
  );
}
