import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ClientPayload } from "../../../shared/schemas/clients";
import {
  type DeletedClient,
  RETENTION_CHOICES,
  type Retention,
} from "../../../shared/schemas/deleted-clients";
import { apiGet, apiPatch, apiPost, serverMessage } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { useRetentionDays } from "../api/retention";
import { dateTimeFormat } from "../i18n/formats";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Field } from "../ui/field";
import { Spinner } from "../ui/spinner";
import { useToast } from "../ui/toast";

/** Settings → Deleted clients (issue 28; owner and admins): how long, and the list to restore. */
export function DeletedClientsTab() {
  return (
    <div className="settings-section-list">
      <RetentionForm />
      <DeletedClientsList />
    </div>
  );
}

function RetentionForm() {
  const { t } = useTranslation("settings");
  const choiceLabel = (days: number) =>
    days === 0 ? t("Don't keep them") : t("{{count}} days", { count: days });
  const days = useRetentionDays();
  const [chosen, setChosen] = useState<number | null>(null);
  const queryClient = useQueryClient();
  const toast = useToast();
  const save = useMutation({
    mutationFn: (value: number) => apiPatch<Retention>("/api/workspace/retention", { days: value }),
    onSuccess: (answer) => {
      queryClient.setQueryData(queryKeys.retention, answer);
      setChosen(null);
      // Fewer days may put deleted clients past their date: they leave the list.
      void queryClient.invalidateQueries({ queryKey: queryKeys.deletedClients });
      toast({ title: t("Settings updated"), variant: "success" });
    },
    onError: (error) =>
      toast({
        title: t("Failed to update settings"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });
  const value = chosen ?? days.data ?? 0;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(value);
  };

  return (
    <form className="form-stack" onSubmit={submit}>
      <div className="settings-section">
        <h3 className="settings-section__title">{t("Keeping deleted clients")}</h3>
        <p className="settings-section__hint">
          {t(
            "When you delete a client, their people lose access at once. Keep the conversation, files and people for a while to restore a client deleted by mistake; after that they are removed for good. Deleted clients do not count towards your plan's client limit.",
          )}
        </p>
      </div>
      {days.isError ? (
        <Alert title={t("Could not load this setting")} variant="destructive">
          {serverMessage(days.error, t("Please try again"))}
        </Alert>
      ) : (
        <div className="delay-field">
          <Field
            label={t("Keep deleted clients for")}
            hint={
              value === 0
                ? t("Deleted clients are removed at once and cannot be restored.")
                : t("A change counts from each client's deletion.")
            }
          >
            {(control) => (
              <select
                {...control}
                className="input team-select"
                value={value}
                disabled={days.isPending}
                onChange={(event) => setChosen(Number(event.target.value))}
              >
                {RETENTION_CHOICES.map((choice) => (
                  <option key={choice} value={choice}>
                    {choiceLabel(choice)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
      )}
      <div className="settings-actions">
        <Button type="submit" loading={save.isPending} disabled={!days.isSuccess}>
          {save.isPending ? t("Saving...") : t("Save Settings")}
        </Button>
      </div>
    </form>
  );
}

function DeletedClientsList() {
  const { t } = useTranslation("settings");
  const queryClient = useQueryClient();
  const toast = useToast();
  const titleRef = useRef<HTMLHeadingElement>(null);
  const deleted = useQuery({
    queryKey: queryKeys.deletedClients,
    queryFn: () => apiGet<DeletedClient[]>("/api/clients/deleted"),
  });
  const restore = useMutation({
    mutationFn: (client: DeletedClient) =>
      apiPost<ClientPayload>(`/api/clients/${encodeURIComponent(client.id)}/restore`),
    onSuccess: (_answer, client) => {
      // The clients' key covers the list of deleted clients too.
      void queryClient.invalidateQueries({ queryKey: queryKeys.clients });
      void queryClient.invalidateQueries({ queryKey: queryKeys.accountTier });
      toast({ title: t("Client restored"), description: client.name, variant: "success" });
      // The row (and its focused button) goes: focus stays in the section.
      titleRef.current?.focus();
    },
    onError: (error) =>
      toast({
        title: t("Failed to restore client"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });
  const clients = deleted.data ?? [];
  const restoring = restore.isPending ? restore.variables?.id : undefined;
  const dayFormat = dateTimeFormat({ day: "numeric", month: "short", year: "numeric" });

  return (
    <section className="settings-section" aria-labelledby="deleted-clients-title">
      <h3
        id="deleted-clients-title"
        ref={titleRef}
        tabIndex={-1}
        className="settings-section__title"
      >
        {t("Deleted clients")}
      </h3>
      {deleted.isPending ? (
        <p className="team-members__loading">
          <Spinner size="sm" label="" /> {t("Loading deleted clients...")}
        </p>
      ) : deleted.isError ? (
        <Alert title={t("Could not load deleted clients")} variant="destructive">
          {serverMessage(deleted.error, t("Please try again"))}
        </Alert>
      ) : clients.length === 0 ? (
        <p className="settings-section__hint">
          {t("No deleted clients to restore. A client you delete shows here while it is kept.")}
        </p>
      ) : (
        <ul className="team-members" aria-label={t("Deleted clients")}>
          {clients.map((client) => (
            <li key={client.id} className="team-members__row">
              <span className="team-members__who">
                <span className="team-members__name">{client.name}</span>
                <span className="team-members__email">{client.email}</span>
                <span className="deleted-clients__when">
                  {client.deletedBy
                    ? t("Deleted {{date}} by {{name}} · removed for good on {{purgeDate}}", {
                        date: dayFormat.format(new Date(client.deletedAt)),
                        name: client.deletedBy,
                        purgeDate: dayFormat.format(new Date(client.purgeAt)),
                      })
                    : t("Deleted {{date}} · removed for good on {{purgeDate}}", {
                        date: dayFormat.format(new Date(client.deletedAt)),
                        purgeDate: dayFormat.format(new Date(client.purgeAt)),
                      })}
                </span>
              </span>
              <Button
                variant="secondary"
                size="sm"
                loading={restoring === client.id}
                disabled={restoring !== undefined && restoring !== client.id}
                aria-label={t("Restore {{name}}", { name: client.name })}
                onClick={() => restore.mutate(client)}
              >
                {t("Restore")}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
