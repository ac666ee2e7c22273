import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiPatch, serverMessage } from "../api/client";
import { useCurrentUser } from "../api/current-user";
import { queryKeys } from "../api/query-keys";
import { Button } from "../ui/button";
import { TextField } from "../ui/field";
import { useToast } from "../ui/toast";

export function PasswordTab() {
  const { t } = useTranslation("settings");
  const { data: user } = useCurrentUser();
  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const queryClient = useQueryClient();
  const toast = useToast();
  // Accounts made with Google have no password yet: they set one without a current one.
  const hasPassword = user?.hasPassword !== false;

  const change = useMutation({
    mutationFn: () => apiPatch("/api/user/password", { currentPassword, newPassword }),
    onSuccess: () => {
      setCurrentPassword("");
      setNewPassword("");
      setConfirmPassword("");
      // The answer has no user; fetch it so that e.g. hasPassword is right after a first password.
      void queryClient.invalidateQueries({ queryKey: queryKeys.user });
      toast({ title: t("Password updated successfully"), variant: "success" });
    },
    onError: (error) =>
      toast({
        title: t("Failed to update password"),
        description: serverMessage(error, t("Please check your current password")),
        variant: "destructive",
      }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (newPassword !== confirmPassword) {
      toast({ title: t("Passwords don't match"), variant: "destructive" });
      return;
    }
    change.mutate();
  };

  return (
    <form className="form-stack" onSubmit={submit}>
      {!hasPassword && (
        <p className="settings-section__hint">
          {t(
            "Your account signs in with Google. You can add a password within 10 minutes of signing in with Google; if it has been longer, sign out and sign in with Google again first.",
          )}
        </p>
      )}
      {hasPassword && (
        <TextField
          label={t("Current password")}
          type="password"
          autoComplete="current-password"
          required
          value={currentPassword}
          onChange={(event) => setCurrentPassword(event.target.value)}
        />
      )}
      <TextField
        label={t("New password")}
        type="password"
        autoComplete="new-password"
        required
        minLength={6}
        hint={t("At least 6 characters.")}
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
      <div className="settings-actions">
        <Button type="submit" loading={change.isPending}>
          {change.isPending ? t("Updating...") : t("Update Password")}
        </Button>
      </div>
    </form>
  );
}
