import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { AddClientResponse } from "../../../shared/schemas/clients";
import { apiPost, serverMessage } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { Button } from "../ui/button";
import { copyText } from "../ui/clipboard";
import { Dialog, DialogClose, DialogFooter } from "../ui/dialog";
import { TextField } from "../ui/field";
import { useToast } from "../ui/toast";
import type { InviteLinks } from "./invite-link-chooser";

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

function check(name: string, email: string): FieldErrors {
  const errors: FieldErrors = {};
  if (!name.trim()) errors.name = "Please enter the client's name";
  if (!email.trim()) errors.email = "Please enter the client's email";
  else if (!EMAIL_PATTERN.test(email.trim())) errors.email = "Please enter a valid email address";
  return errors;
}

/** What the success notice says besides its title. */
function successDetails(
  answer: AddClientResponse,
  emailAsked: boolean,
  copied: boolean,
): string | undefined {
  const parts: string[] = [];
  if (copied) parts.push("The invite link is on your clipboard.");
  if (emailAsked) {
    parts.push(
      answer.inviteEmailSent
        ? `We emailed the invite to ${answer.email}.`
        : "The invite email could not be sent; share the link yourself.",
    );
  }
  return parts.join(" ") || undefined;
}

export function AddClientDialog({ open, onOpenChange, onAdded }: AddClientDialogProps) {
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [sendInviteEmail, setSendInviteEmail] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const queryClient = useQueryClient();
  const toast = useToast();

  const reset = () => {
    setName("");
    setEmail("");
    setSendInviteEmail(false);
    setErrors({});
    setSubmitted(false);
  };

  const addClient = useMutation({
    mutationFn: () =>
      apiPost<AddClientResponse>("/api/clients", {
        name: name.trim(),
        email: email.trim(),
        sendInviteEmail,
      }),
    onSuccess: async (answer) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.clients });
      void queryClient.invalidateQueries({ queryKey: queryKeys.accountTier });
      // Spec: the invite link is copied to the clipboard when no short link came back.
      const copied = !answer.shortInviteUrl && (await copyText(answer.inviteUrl));
      toast({
        title: "Client added successfully!",
        description: successDetails(answer, sendInviteEmail, copied),
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
        title: "Failed to add client",
        description: serverMessage(error, "Please try again"),
        variant: "destructive",
      }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = check(name, email);
    setErrors(found);
    setSubmitted(true);
    if (found.name || found.email) return;
    addClient.mutate();
  };

  // After a first try, errors follow the typing so they disappear once fixed.
  const recheck = (nextName: string, nextEmail: string) => {
    if (submitted) setErrors(check(nextName, nextEmail));
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) reset();
        onOpenChange(next);
      }}
      title="Add New Client"
      description="They get a private conversation with you and join through an invite link."
    >
      <form className="form-stack" onSubmit={submit} noValidate>
        <TextField
          label="Client name"
          required
          autoComplete="off"
          value={name}
          error={errors.name}
          onChange={(event) => {
            setName(event.target.value);
            recheck(event.target.value, email);
          }}
          placeholder="Acme Studio"
        />
        <TextField
          label="Client email"
          type="email"
          required
          autoComplete="off"
          value={email}
          error={errors.email}
          onChange={(event) => {
            setEmail(event.target.value);
            recheck(name, event.target.value);
          }}
          placeholder="hello@acme.com"
        />
        <label className="checkbox-field">
          <input
            type="checkbox"
            className="checkbox-field__box"
            checked={sendInviteEmail}
            onChange={(event) => setSendInviteEmail(event.target.checked)}
          />
          <span>
            <span className="checkbox-field__label">Email the invite to the client</span>
            <span className="checkbox-field__hint">
              We send the invite link to this address. You can also copy it yourself.
            </span>
          </span>
        </label>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="secondary">Cancel</Button>
          </DialogClose>
          <Button type="submit" loading={addClient.isPending}>
            {addClient.isPending ? "Adding..." : "Add Client"}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
