import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { SuccessResponse } from "../../../shared/schemas/common";
import { apiPost, serverMessage } from "../api/client";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { TextField } from "../ui/field";

/**
 * Clients have no password: a client who is signed out (new phone, cleared cookies) asks for
 * a one-time sign-in link by email. The answer is the same whether or not the address is known.
 */
export function SignInLinkRequest({ intro = true }: { intro?: boolean }) {
  const { t } = useTranslation("portal");
  const [email, setEmail] = useState("");
  const request = useMutation({
    mutationFn: () => apiPost<SuccessResponse>("/api/client-sign-in-link", { email: email.trim() }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    request.mutate();
  };

  if (request.isSuccess) {
    return (
      <div className="sign-in-link">
        <Alert title={t("Check your email")}>
          {request.data?.message ??
            t("If that address belongs to a conversation, a sign-in link is on its way.")}
        </Alert>
      </div>
    );
  }

  return (
    <form className="sign-in-link form-stack" onSubmit={submit}>
      {intro && (
        <p className="sign-in-link__intro">{t("Already joined? Get a sign-in link by email.")}</p>
      )}
      <TextField
        label={t("Your email address")}
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        placeholder={t("you@example.com")}
      />
      {request.isError && (
        <Alert variant="destructive" title={t("We couldn't send the link")}>
          {serverMessage(request.error, t("Please try again"))}
        </Alert>
      )}
      <Button type="submit" variant="secondary" fullWidth loading={request.isPending}>
        {request.isPending ? t("Sending...") : t("Email me a sign-in link")}
      </Button>
    </form>
  );
}
