import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiPatch, serverMessage } from "../api/client";
import { exportPaths } from "../../../shared/schemas/exports";
import { ExportButton } from "../conversation/export-button";
import { queryKeys } from "../api/query-keys";
import { PushSettingsSection } from "../pwa/push-settings-section";
import { Button } from "../ui/button";
import { TextField } from "../ui/field";
import { useToast } from "../ui/toast";
import type { PortalClient } from "./portal-client-query";
import { PortalPeople } from "./portal-people";
import { PortalLanguageSetting } from "../i18n/portal-language-setting";

/** Spec sections 5 and 9: 1 to 60 minutes, default 5. (shared/defaults.ts holds the same.) */
const DEFAULT_DELAY_MINUTES = 5;
const MIN_DELAY_MINUTES = 1;
const MAX_DELAY_MINUTES = 60;

/** An empty or non-numeric entry falls back to 5. */
export function delayMinutes(value: string): number {
  const minutes = Number.parseInt(value.trim(), 10);
  return Number.isNaN(minutes) ? DEFAULT_DELAY_MINUTES : minutes;
}

/** The client's own email notification delay (PATCH /api/clients/{id}/notification-settings). */
export function PortalSettings({ client }: { client: PortalClient }) {
  const { t } = useTranslation("portal");
  const [delay, setDelay] = useState(String(client.emailNotificationDelay));
  const queryClient = useQueryClient();
  const toast = useToast();
  const minutes = delayMinutes(delay);
  const outOfRange = minutes < MIN_DELAY_MINUTES || minutes > MAX_DELAY_MINUTES;

  const save = useMutation({
    mutationFn: (emailNotificationDelay: number) =>
      apiPatch(`/api/clients/${encodeURIComponent(client.id)}/notification-settings`, {
        emailNotificationDelay,
      }),
    onSuccess: (_answer, emailNotificationDelay) => {
      setDelay(String(emailNotificationDelay));
      queryClient.setQueryData<PortalClient>(queryKeys.client(client.id), (current) =>
        current ? { ...current, emailNotificationDelay } : current,
      );
      toast({ title: t("Settings updated"), variant: "success" });
    },
    onError: (error) =>
      toast({
        title: t("Failed to update settings"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (outOfRange) return;
    save.mutate(minutes);
  };

  return (
    <>
      <form className="portal-settings form-stack" onSubmit={submit} noValidate>
        <div>
          <h2 className="portal-settings__title">{t("Email notifications")}</h2>
          <p className="portal-settings__hint">
            {t(
              "When a message waits this long without your reply, we send you one email about it.",
            )}
          </p>
        </div>
        <TextField
          label={t("Notification delay (minutes)")}
          type="number"
          inputMode="numeric"
          min={MIN_DELAY_MINUTES}
          max={MAX_DELAY_MINUTES}
          step={1}
          value={delay}
          onChange={(event) => setDelay(event.target.value)}
          hint={t("Between {{min}} and {{max}} minutes. Empty means {{fallback}}.", {
            min: MIN_DELAY_MINUTES,
            max: MAX_DELAY_MINUTES,
            fallback: DEFAULT_DELAY_MINUTES,
          })}
          error={
            outOfRange
              ? t("Choose between {{min}} and {{max}} minutes", {
                  min: MIN_DELAY_MINUTES,
                  max: MAX_DELAY_MINUTES,
                })
              : undefined
          }
        />
        <div className="portal-settings__actions">
          <Button type="submit" loading={save.isPending} disabled={outOfRange}>
            {save.isPending ? t("Saving...") : t("Save Settings")}
          </Button>
        </div>
      </form>
      <PortalPeople client={client} />
      <PushSettingsSection
        className="portal-settings push-settings--card"
        headingLevel="h2"
        titleClassName="portal-settings__title"
        hintClassName="portal-settings__hint"
      />
      {/* After notifications: on a small phone "Turn on notifications" stays in the first view. */}
      <PortalLanguageSetting />
      <section className="portal-settings form-stack" aria-labelledby="portal-data-heading">
        <div>
          <h2 id="portal-data-heading" className="portal-settings__title">
            {t("Your data")}
          </h2>
          <p className="portal-settings__hint">
            {t(
              "A ZIP of this conversation: every message, every file with all its versions, and your approvals as a spreadsheet (approvals.csv).",
            )}
          </p>
        </div>
        <div className="portal-settings__actions">
          <ExportButton path={exportPaths.own} label={t("Download my data")} size="md" />
        </div>
      </section>
    </>
  );
}
