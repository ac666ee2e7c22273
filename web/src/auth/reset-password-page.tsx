import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
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
function formProblem(email: string, token: string, newPassword: string, confirmPassword: string) {
  if (!email || !token || !newPassword) return "Please fill in all fields";
  if (newPassword !== confirmPassword) return "Passwords do not match";
  if (newPassword.length < MIN_PASSWORD_LENGTH)
    return "Password must be at least 6 characters long";
  return null;
}

export function ResetPasswordPage() {
  const [email, setEmail] = useState(() => resetEmail.get());
  const [token, setToken] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const navigate = useNavigate();
  const toast = useToast();

  const reset = useMutation({
    mutationFn: () =>
      apiPost<SuccessResponse>("/api/reset-password", {
        email: email.trim(),
        token: token.trim(),
        newPassword,
      }),
    onSuccess: (answer) => {
      toast({
        title: "Password reset successful",
        description: answer.message,
        variant: "success",
      });
      resetEmail.clear();
      navigate("/auth", { replace: true });
    },
    onError: (error) =>
      toast({
        title: "Reset failed",
        description: serverMessage(error, "Failed to reset password"),
        variant: "destructive",
      }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = formProblem(email.trim(), token.trim(), newPassword, confirmPassword);
    if (problem) {
      toast({ title: "Error", description: problem, variant: "destructive" });
      return;
    }
    reset.mutate();
  };

  return (
    <AuthLayout
      title="Reset Your Password"
      subtitle="Enter the code we emailed you and choose a new password."
    >
      <h2 className="auth-card__heading">Set New Password</h2>
      <p className="auth-card__text">All fields are required.</p>
      {/* noValidate: the checks and their wording are the product's own (spec section 5). */}
      <form className="form-stack" onSubmit={submit} noValidate>
        <TextField
          label="Email address"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          placeholder="you@company.com"
        />
        <TextField
          label="Reset code"
          className="input--code"
          autoComplete="one-time-code"
          required
          maxLength={CODE_LENGTH}
          value={token}
          onChange={(event) => setToken(event.target.value.slice(0, CODE_LENGTH))}
          placeholder="000000"
          hint="Enter the 6-digit code from email"
        />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          required
          value={newPassword}
          onChange={(event) => setNewPassword(event.target.value)}
        />
        <TextField
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          required
          value={confirmPassword}
          onChange={(event) => setConfirmPassword(event.target.value)}
        />
        <Button type="submit" fullWidth size="lg" loading={reset.isPending}>
          {reset.isPending ? "Resetting Password..." : "Reset Password"}
        </Button>
      </form>
      <p className="auth-card__note">The reset code will expire in 15 minutes.</p>
      <div className="auth-card__footer">
        <Button variant="ghost" icon={<ArrowLeftIcon />} onClick={() => navigate("/auth")}>
          Back to login
        </Button>
      </div>
    </AuthLayout>
  );
}
