import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { RegisterResponse } from "../../../shared/schemas/auth";
import { withNextPath } from "../../../shared/next-path";
import { apiPost, serverMessage } from "../api/client";
import { setCurrentUser, type User } from "../api/current-user";
import { Button } from "../ui/button";
import { TextField } from "../ui/field";
import { useToast } from "../ui/toast";
import { pendingVerificationEmail } from "./stored-emails";

const MIN_PASSWORD_LENGTH = 6;

/** `next`: a path of this site to open once signed up and verified, instead of the dashboard. */
export function SignUpForm({
  next = null,
  initialEmail = "",
}: {
  next?: string | null;
  initialEmail?: string;
}) {
  const [fullName, setFullName] = useState("");
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const { t } = useTranslation("auth");
  const mismatch = confirmPassword !== "" && confirmPassword !== password;

  const register = useMutation({
    mutationFn: () =>
      apiPost<RegisterResponse>("/api/register", {
        email,
        password,
        fullName,
        role: "owner",
        accountTier: "free",
      }),
    onSuccess: (answer) => {
      if ("requiresVerification" in answer && answer.requiresVerification) {
        pendingVerificationEmail.set(answer.email);
        toast({
          title: t("Registration successful"),
          description: t("Please check your email for a verification code"),
        });
        navigate(withNextPath(`/verify-email?email=${encodeURIComponent(answer.email)}`, next));
        return;
      }
      setCurrentUser(queryClient, answer as User);
      navigate(next ?? "/", { replace: true });
    },
    onError: (error) =>
      toast({
        title: t("Registration failed"),
        description: serverMessage(error, t("Unknown error occurred")),
        variant: "destructive",
      }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Spec: a confirmation that differs blocks the submit without a notice.
    if (password !== confirmPassword) return;
    register.mutate();
  };

  return (
    <form className="form-stack" onSubmit={submit}>
      <TextField
        label={t("Full name")}
        autoComplete="name"
        required
        value={fullName}
        onChange={(event) => setFullName(event.target.value)}
        placeholder={t("Jane Cooper")}
      />
      <TextField
        label={t("Email")}
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        placeholder={t("you@company.com")}
      />
      <TextField
        label={t("Password")}
        type="password"
        autoComplete="new-password"
        required
        minLength={MIN_PASSWORD_LENGTH}
        hint={t("At least {{count}} characters.", { count: MIN_PASSWORD_LENGTH })}
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <TextField
        label={t("Confirm password")}
        type="password"
        autoComplete="new-password"
        required
        aria-invalid={mismatch || undefined}
        value={confirmPassword}
        onChange={(event) => setConfirmPassword(event.target.value)}
      />
      <Button type="submit" fullWidth size="lg" loading={register.isPending}>
        {register.isPending ? t("Creating account...") : t("Create Account")}
      </Button>
    </form>
  );
}
