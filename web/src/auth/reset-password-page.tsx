import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { SuccessResponse } from "../../../shared/schemas/common";
import { apiPost, serverMessage } from "../api/client";
import { Button } from "../ui/button";
import { TextField } from "../ui/field";
import { ArrowLeftIcon } from "../ui/icons";
import { useToast } from "../ui/toast";
import { AuthLayout } from "./auth-layout";
import { resetEmail } from "./stored-emails";

const CODE_LENGTH = 6;
const MIN_PASSWORD_LENGTH = 6;

/** The client-side checks, in the spec's order; null when the form may be sent. */
function formProblem(
  t: TFunction<"auth">,
  email: string,
  token: string,
  newPassword: string,
  confirmPassword: string,
) {
  if (!email || !token || !newPassword) return t("Please fill in all fields");
  if (newPassword !== confirmPassword) return t("Passwords do not match");
  if (newPassword.length < MIN_PASSWORD_LENGTH)
    return t("Password must be at least {{count}} characters long", {
      count: MIN_PASSWORD_LENGTH,
    });
  return null;
}

export function ResetPasswordPage() {
  const [email, setEmail] = useState(() => resetEmail.get());
  const [token, setToken] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const navigate = useNavigate();
  const toast = useToast();
  const { t } = useTranslation("auth");

  const reset = useMutation({
    mutationFn: () =>
      apiPost<SuccessResponse>("/api/reset-password", {
        email: email.trim(),
        token: token.trim(),
        newPassword,
      }),
    onSuccess: (answer) => {
      toast({
        title: t("Password reset successful"),
        description: answer.message,
        variant: "success",
      });
      resetEmail.clear();
      navigate("/auth", { replace: true });
    },
    onError: (error) =>
      toast({
        title: t("Reset failed"),
        description: serverMessage(error, t("Failed to reset password")),
        variant: "destructive",
      }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = formProblem(t, email.trim(), token.trim(), newPassword, confirmPassword);
    if (problem) {
      toast({ title: t("Error"), description: problem, variant: "destructive" });
      return;
    }
    reset.mutate();
  };

  return (
    <AuthLayout
      title={t("Reset Your Password")}
      subtitle={t("Enter the code we emailed you and choose a new password.")}
    >
      <h2 className="auth-card__heading">{t("Set New Password")}</h2>
      <p className="auth-card__text">{t("All fields are required.")}</p>
      {/* noValidate: the checks and their wording are the product's own (spec section 5). */}
      <form className="form-stack" onSubmit={submit} noValidate>
        <TextField
          label={t("Email address")}
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          placeholder={t("you@company.com")}
        />
        <TextField
          label={t("Reset code")}
          className="input--code"
          autoComplete="one-time-code"
          required
          maxLength={CODE_LENGTH}
          value={token}
          onChange={(event) => setToken(event.target.value.slice(0, CODE_LENGTH))}
          placeholder="000000"
          hint={t("Enter the 6-digit code from email")}
        />
        <TextField
          label={t("New password")}
          type="password"
          autoComplete="new-password"
          required
          value={newPassword}
          onChange={(event) => setNewPassword(event.target.value)}
        />
        <TextField
          label={t("Confirm new password")}
          type="password"
          autoComplete="new-password"
          required
          value={confirmPassword}
          onChange={(event) => setConfirmPassword(event.target.value)}
        />
        <Button type="submit" fullWidth size="lg" loading={reset.isPending}>
          {reset.isPending ? t("Resetting Password...") : t("Reset Password")}
        </Button>
      </form>
      <p className="auth-card__note">{t("The reset code will expire in 15 minutes.")}</p>
      <div className="auth-card__footer">
        <Button variant="ghost" icon={<ArrowLeftIcon />} onClick={() => navigate("/auth")}>
          {t("Back to login")}
        </Button>
      </div>
    </AuthLayout>
  );
}
