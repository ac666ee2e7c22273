import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { TFunction } from "i18next";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { AddClientResponse } from "../../../shared/schemas/clients";
import { apiPost, serverMessage } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { Button } from "../ui/button";
import { copyText } from "../ui/clipboard";
import { Dialog, DialogClose, DialogFooter } from "../ui/dialog";
import { TextField } from "../ui/field";
import { useToast } from "../ui/toast";
import type { InviteLinks } from "./invite-link-chooser";
import type { Language } from "../../../shared/i18n/languages";
import { ClientLanguageField } from "../i18n/client-language-field";

interface AddClientDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The client was added: open their conversation and the invite link chooser. */
  onAdded: (clientId: string, links: InviteLinks) => void;
}

/** A light check before the server's own (which decides): something@something.tld. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface FieldErrors {
  name?: string;
  email?: string;
}

function check(t: TFunction, name: string, email: string): FieldErrors {
  const errors: FieldErrors = {};
  if (!name.trim()) errors.name = t("Please enter the client's name");
  if (!email.trim()) errors.email = t("Please enter the client's email");
  else if (!EMAIL_PATTERN.test(email.trim()))
    errors.email = t("Please enter a valid email address");
  return errors;
}

/** What the success notice says besides its title. */
function successDetails(
  t: TFunction,
  answer: AddClientResponse,
  emailAsked: boolean,
  copied: boolean,
): string | undefined {
  const parts: string[] = [];
  if (copied) parts.push(t("The invite link is on your clipboard."));
  if (emailAsked) {
    parts.push(
      answer.inviteEmailSent
        ? t("We emailed the invite to {{email}}.", { email: answer.email })
        : t("The invite email could not be sent; share the link yourself."),
    );
  }
  return parts.join(" ") || undefined;
}

export function AddClientDialog({ open, onOpenChange, onAdded }: AddClientDialogProps) {
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [sendInviteEmail, setSendInviteEmail] = useState(false);
  const [language, setLanguage] = useState<Language | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const queryClient = useQueryClient();
  const toast = useToast();
  const { t } = useTranslation("dashboard");

  const reset = () => {
    setName("");
    setEmail("");
    setSendInviteEmail(false);
    setLanguage(null);
    setErrors({});
    setSubmitted(false);
  };

  const addClient = useMutation({
    mutationFn: () =>
      apiPost<AddClientResponse>("/api/clients", {
        name: name.trim(),
        email: email.trim(),
        sendInviteEmail,
        language,
      }),
    onSuccess: async (answer) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.clients });
      void queryClient.invalidateQueries({ queryKey: queryKeys.accountTier });
      // Spec: the invite link is copied to the clipboard when no short link came back.
      const copied = !answer.shortInviteUrl && (await copyText(answer.inviteUrl));
      toast({
        title: t("Client added successfully!"),
        description: successDetails(t, answer, sendInviteEmail, copied),
        variant: "success",
      });
      reset();
      onOpenChange(false);
      onAdded(answer.id, {
        clientName: answer.name,
        standardUrl: answer.inviteUrl,
        tinyUrl: answer.shortInviteUrl,
      });
    },
    onError: (error) =>
      toast({
        title: t("Failed to add client"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = check(t, name, email);
    setErrors(found);
    setSubmitted(true);
    if (found.name || found.email) return;
    addClient.mutate();
  };

  // After a first try, errors follow the typing so they disappear once fixed.
  const recheck = (nextName: string, nextEmail: string) => {
    if (submitted) setErrors(check(t, nextName, nextEmail));
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) reset();
        onOpenChange(next);
      }}
      title={t("Add New Client")}
      description={t("They get a private conversation with you and join through an invite link.")}
    >
      <form className="form-stack" onSubmit={submit} noValidate>
        <TextField
          label={t("Client name")}
          required
          autoComplete="off"
          value={name}
          error={errors.name}
          onChange={(event) => {
            setName(event.target.value);
            recheck(event.target.value, email);
          }}
          placeholder={t("Acme Studio")}
        />
        <TextField
          label={t("Client email")}
          type="email"
          required
          autoComplete="off"
          value={email}
          error={errors.email}
          onChange={(event) => {
            setEmail(event.target.value);
            recheck(name, event.target.value);
          }}
          placeholder={t("hello@acme.com")}
        />
        <ClientLanguageField value={language} onChange={setLanguage} />
        <label className="checkbox-field">
          <input
            type="checkbox"
            className="checkbox-field__box"
            checked={sendInviteEmail}
            onChange={(event) => setSendInviteEmail(event.target.checked)}
          />
          <span>
            <span className="checkbox-field__label">{t("Email the invite to the client")}</span>
            <span className="checkbox-field__hint">
              {t("We send the invite link to this address. You can also copy it yourself.")}
            </span>
          </span>
        </label>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="secondary">{t("Cancel")}</Button>
          </DialogClose>
          <Button type="submit" loading={addClient.isPending}>
            {addClient.isPending ? t("Adding...") : t("Add Client")}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
