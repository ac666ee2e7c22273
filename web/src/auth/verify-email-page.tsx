import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { safeNextPath, withNextPath } from "../../../shared/next-path";
import type { UserChangedResponse } from "../../../shared/schemas/user";
import { ApiError, apiPost, serverMessage } from "../api/client";
import { setCurrentUser } from "../api/current-user";
import { Button } from "../ui/button";
import { TextField } from "../ui/field";
import { ArrowLeftIcon } from "../ui/icons";
import { useToast } from "../ui/toast";
import { AuthLayout } from "./auth-layout";
import { pendingVerificationEmail } from "./stored-emails";

const CODE_LENGTH = 6;

export function VerifyEmailPage() {
  const [searchParams] = useSearchParams();
  const [email, setEmail] = useState(
    () => searchParams.get("email") ?? pendingVerificationEmail.get(),
  );
  const [code, setCode] = useState("");
  const next = safeNextPath(searchParams.get("next"));
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const { t } = useTranslation("auth");

  const verify = useMutation({
    mutationFn: () =>
      apiPost<UserChangedResponse>("/api/verify-email", { email: email.trim(), code }),
    onSuccess: (answer) => {
      toast({ title: t("Email verified successfully!"), variant: "success" });
      pendingVerificationEmail.clear();
      // The server signs the user in on success.
      if (answer.user) {
        setCurrentUser(queryClient, answer.user);
        navigate(next ?? "/", { replace: true });
      } else {
        navigate(withNextPath("/auth", next), { replace: true });
      }
    },
    onError: (error) =>
      toast({
        title: t("Verification failed"),
        description:
          error instanceof ApiError
            ? serverMessage(error, t("Invalid or expired verification code"))
            : t("Something went wrong. Please try again."),
        variant: "destructive",
      }),
  });

  const resend = useMutation({
    mutationFn: () => apiPost("/api/resend-verification", { email: email.trim() }),
    onSuccess: () =>
      toast({
        title: t("Verification code sent"),
        description: t("Check {{email}} for a new code.", { email: email.trim() }),
        variant: "success",
      }),
    onError: (error) =>
      toast({
        title: t("Failed to resend code"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim() || !code) {
      toast({
        title: t("Missing information"),
        description: t("Please enter your email address and the 6-digit code."),
        variant: "destructive",
      });
      return;
    }
    verify.mutate();
  };

  const resendCode = () => {
    if (!email.trim()) {
      toast({
        title: t("Email required"),
        description: t("Please enter your email address"),
        variant: "destructive",
      });
      return;
    }
    resend.mutate();
  };

  return (
    <AuthLayout
      title={t("Verify your email")}
      subtitle={t("We sent a 6-digit code to your inbox. It expires in 10 minutes.")}
    >
      <form className="form-stack" onSubmit={submit} noValidate>
        <TextField
          label={t("Email address")}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          placeholder={t("you@company.com")}
        />
        <TextField
          label={t("Verification code")}
          className="input--code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={CODE_LENGTH}
          value={code}
          onChange={(event) => setCode(event.target.value.replace(/\D/g, "").slice(0, CODE_LENGTH))}
          placeholder="000000"
          hint={t("Enter the 6-digit code from the email.")}
        />
        <Button type="submit" fullWidth size="lg" loading={verify.isPending}>
          {verify.isPending ? t("Verifying...") : t("Verify Email")}
        </Button>
        <Button variant="secondary" fullWidth loading={resend.isPending} onClick={resendCode}>
          {resend.isPending ? t("Sending...") : t("Resend code")}
        </Button>
      </form>
      <div className="auth-card__footer">
        <Button
          variant="ghost"
          icon={<ArrowLeftIcon />}
          onClick={() => navigate(withNextPath("/auth", next))}
        >
          {t("Back to login")}
        </Button>
      </div>
    </AuthLayout>
  );
}
