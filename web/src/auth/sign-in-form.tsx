import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { withNextPath } from "../../../shared/next-path";
import { ApiError, apiPost } from "../api/client";
import { setCurrentUser, type User } from "../api/current-user";
import { Button } from "../ui/button";
import { TextField } from "../ui/field";
import { useToast } from "../ui/toast";
import { pendingVerificationEmail } from "./stored-emails";

interface LoginForbiddenBody {
  requiresVerification?: boolean;
  email?: string;
}

function needsVerification(error: unknown): error is ApiError {
  if (!(error instanceof ApiError) || error.status !== 403) return false;
  const body = error.body as LoginForbiddenBody | null;
  return body?.requiresVerification === true || error.message.startsWith("VERIFICATION_REQUIRED");
}

interface SignInFormProps {
  /** `onForgotPassword` gets the email typed so far: the reset dialog starts with it. */
  onForgotPassword: (email: string) => void;
  /** A path of this site to open once signed in, instead of the dashboard. */
  next?: string | null;
  initialEmail?: string;
}

export function SignInForm({ onForgotPassword, next = null, initialEmail = "" }: SignInFormProps) {
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState("");
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const { t } = useTranslation("auth");

  const login = useMutation({
    mutationFn: () => apiPost<User>("/api/login", { username: email, password }),
    onSuccess: (user) => {
      setCurrentUser(queryClient, user);
      navigate(next ?? "/", { replace: true });
    },
    onError: (error) => {
      if (needsVerification(error)) {
        const address = (error.body as LoginForbiddenBody).email ?? email;
        pendingVerificationEmail.set(address);
        toast({
          title: t("Email verification required"),
          description: t("Please verify your email address before logging in"),
        });
        navigate(withNextPath(`/verify-email?email=${encodeURIComponent(address)}`, next));
        return;
      }
      // Rate limiting is not a wrong password: say how long to wait instead.
      const description =
        error instanceof ApiError && error.status === 429
          ? error.message
          : t("Invalid email or password");
      toast({ title: t("Login failed"), description, variant: "destructive" });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate();
  };

  return (
    <form className="form-stack" onSubmit={submit}>
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
        autoComplete="current-password"
        required
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <div className="auth-forgot">
        <button type="button" className="link-button" onClick={() => onForgotPassword(email)}>
          {t("Forgot password?")}
        </button>
      </div>
      <Button type="submit" fullWidth size="lg" loading={login.isPending}>
        {login.isPending ? t("Signing in...") : t("Sign In")}
      </Button>
    </form>
  );
}
