import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { apiPost, serverMessage } from "../api/client";
import { Button } from "../ui/button";
import { useToast } from "../ui/toast";
import { PasswordConfirmDialog } from "./password-confirm-dialog";

/** Ends every other session of the owner's account (a lost laptop, a shared computer). */
export function SignOutEverywhereSection() {
  const { t } = useTranslation("settings");
  const [open, setOpen] = useState(false);
  return (
    <section className="settings-section" aria-labelledby="sign-out-everywhere-heading">
      <div className="settings-section__header">
        <h3 id="sign-out-everywhere-heading" className="settings-section__title">
          {t("Signed-in devices")}
        </h3>
        <Button variant="secondary" size="sm" onClick={() => setOpen(true)}>
          {t("Sign out everywhere else")}
        </Button>
      </div>
      <p className="settings-section__hint">
        {t(
          "Signs you out of every other browser, phone and desktop app at once. You stay signed in here.",
        )}
      </p>
      {open && <SignOutEverywhereDialog onClose={() => setOpen(false)} />}
    </section>
  );
}

function SignOutEverywhereDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation("settings");
  const toast = useToast();
  const signOut = useMutation({
    mutationFn: (password: string | undefined) =>
      apiPost("/api/user/sign-out-everywhere", password === undefined ? {} : { password }),
    onSuccess: () => {
      toast({
        title: t("Signed out everywhere else"),
        description: t("Every other browser and device is signed out."),
        variant: "success",
      });
      onClose();
    },
    onError: (error) =>
      toast({
        title: t("Failed to sign out everywhere"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });

  return (
    <PasswordConfirmDialog
      title={t("Sign out everywhere else?")}
      googleNote={t(
        "Your account signs in with Google: to sign out everywhere, your last sign-in must be less than 10 minutes ago. If it is older, sign out and sign in with Google again first.",
      )}
      submitLabel={t("Sign out everywhere else")}
      pendingLabel={t("Signing out...")}
      pending={signOut.isPending}
      onConfirm={(password) => signOut.mutate(password)}
      onClose={onClose}
    >
      <p>
        {t(
          "Every other browser, phone and desktop app signed in to your account is signed out at once, and its live updates stop. Use this if a device was lost or someone else may be signed in.",
        )}
      </p>
    </PasswordConfirmDialog>
  );
}
