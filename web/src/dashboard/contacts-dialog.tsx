import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import type { AddedContactPayload, ContactPayload } from "../../../shared/schemas/contacts";
import { apiDelete, apiGet, apiPost, serverMessage } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { formatFull } from "../conversation/format-time";
import { Avatar } from "../ui/avatar";
import { Button } from "../ui/button";
import { copyText } from "../ui/clipboard";
import { Dialog } from "../ui/dialog";
import { TextField } from "../ui/field";
import { Spinner } from "../ui/spinner";
import { useToast } from "../ui/toast";
import type { OwnerClient } from "./clients-query";
import "./contacts-dialog.css";
import { ClientLanguageSetting } from "../i18n/client-language-field";

/**
 * Names go into <Trans> texts escaped, so that a "<" or "&" in them stays text; the text nodes
 * are unescaped again when rendered.
 */
const ESCAPED_VALUES = { interpolation: { escapeValue: true } };

interface ContactsDialogProps {
  client: OwnerClient;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * A client's people (issue 26): who reads and writes on the client's side, whether each has
 * joined and how far they have read; a new one is invited by their own link.
 */
export function ContactsDialog({ client, open, onOpenChange }: ContactsDialogProps) {
  const path = `/api/clients/${encodeURIComponent(client.id)}/contacts`;
  const contacts = useQuery({
    queryKey: queryKeys.contacts(client.id),
    queryFn: () => apiGet<ContactPayload[]>(path),
    enabled: open,
  });
  const { t } = useTranslation("dashboard");
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t("People at {{client}}", { client: client.name })}
      description={t(
        "Everyone here reads and writes in this conversation, each with their own invite link and email settings.",
      )}
    >
      {contacts.isPending ? (
        <p className="contacts__state">
          <Spinner size="sm" label="" /> {t("Loading people...")}
        </p>
      ) : contacts.isError ? (
        <p className="contacts__state" role="alert">
          {serverMessage(contacts.error, t("Couldn't load the people of this client"))}
        </p>
      ) : (
        <ul className="contacts" aria-label={t("People at {{client}}", { client: client.name })}>
          {contacts.data.map((contact) => (
            <ContactRow key={contact.id} client={client} contact={contact} path={path} />
          ))}
        </ul>
      )}
      <AddContactForm client={client} path={path} />
      <ClientLanguageSetting client={client} />
    </Dialog>
  );
}

function ContactRow({
  client,
  contact,
  path,
}: {
  client: OwnerClient;
  contact: ContactPayload;
  path: string;
}) {
  const [confirming, setConfirming] = useState(false);
  const queryClient = useQueryClient();
  const toast = useToast();
  const { t } = useTranslation("dashboard");
  const remove = useMutation({
    mutationFn: () => apiDelete(`${path}/${encodeURIComponent(contact.id)}`),
    onSuccess: () => {
      toast({ title: t("{{name}} removed", { name: contact.name }), variant: "success" });
      void queryClient.invalidateQueries({ queryKey: queryKeys.contacts(client.id) });
    },
    onError: (error) =>
      toast({
        title: t("Couldn't remove this person"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });
  return (
    <li className="contacts__row">
      <Avatar name={contact.name} imageUrl={null} size={32} />
      <div className="contacts__who">
        <span className="contacts__name">
          {contact.name}
          {contact.primary && <span className="contacts__badge">{t("First contact")}</span>}
        </span>
        <span className="contacts__email">{contact.email}</span>
        <span className="contacts__status">
          {contact.joinedAt ? t("Joined") : t("Invite pending")}
          {contact.joinedAt && (
            <>
              {" · "}
              {contact.readAt ? (
                <Trans
                  t={t}
                  i18nKey="Last read <0>{{when}}</0>"
                  values={{ when: formatFull(contact.readAt) }}
                  components={[<time key="when" dateTime={contact.readAt} />]}
                  tOptions={ESCAPED_VALUES}
                  shouldUnescape
                />
              ) : (
                t("Nothing read yet")
              )}
            </>
          )}
        </span>
      </div>
      {!contact.primary &&
        (confirming ? (
          <div className="contacts__confirm">
            <span className="contacts__ask">{t("Remove {{name}}?", { name: contact.name })}</span>
            <Button
              variant="danger"
              size="sm"
              loading={remove.isPending}
              onClick={() => remove.mutate()}
            >
              {t("Yes, remove")}
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setConfirming(false)}>
              {t("Keep")}
            </Button>
          </div>
        ) : (
          <Button
            variant="ghost"
            size="sm"
            aria-label={t("Remove {{name}}", { name: contact.name })}
            onClick={() => setConfirming(true)}
          >
            {t("Remove")}
          </Button>
        ))}
    </li>
  );
}

function AddContactForm({ client, path }: { client: OwnerClient; path: string }) {
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [fresh, setFresh] = useState<AddedContactPayload | null>(null);
  const queryClient = useQueryClient();
  const toast = useToast();
  const { t } = useTranslation("dashboard");
  const add = useMutation({
    mutationFn: () => apiPost<AddedContactPayload>(path, { name, email }),
    onSuccess: (answer) => {
      setFresh(answer);
      setName("");
      setEmail("");
      void queryClient.invalidateQueries({ queryKey: queryKeys.contacts(client.id) });
      toast({
        title: t("Invite sent"),
        description: t("We emailed an invite to {{email}}.", { email: answer.email }),
        variant: "success",
      });
    },
    onError: (error) =>
      toast({
        title: t("Could not add this person"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  const copy = async (url: string) => {
    const copied = await copyText(url);
    toast(
      copied
        ? { title: t("Invite link copied"), variant: "success" }
        : { title: t("Could not copy the link"), description: url, variant: "destructive" },
    );
  };
  return (
    <section className="contacts__add" aria-labelledby="contacts-add-title">
      <h3 id="contacts-add-title" className="contacts__add-title">
        {t("Add a person")}
      </h3>
      <form className="contacts__form" onSubmit={submit}>
        <TextField
          label={t("Name")}
          required
          autoComplete="off"
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <TextField
          label={t("Email")}
          type="email"
          required
          autoComplete="off"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          placeholder={t("name@company.com")}
        />
        <Button type="submit" loading={add.isPending}>
          {add.isPending ? t("Sending...") : t("Send invite")}
        </Button>
      </form>
      {fresh && (
        <div className="contacts__fresh">
          <span>
            <Trans
              t={t}
              i18nKey="Invite link for <0>{{name}}</0>: it works once."
              values={{ name: fresh.name }}
              components={[<strong key="name" />]}
              tOptions={ESCAPED_VALUES}
              shouldUnescape
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
