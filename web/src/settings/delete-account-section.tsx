import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { apiPost, serverMessage } from "../api/client";
import { forgetSignedInUser } from "../api/current-user";
import { Button } from "../ui/button";
import { useToast } from "../ui/toast";
import { PasswordConfirmDialog } from "./password-confirm-dialog";

/** The owner deletes their own account: everything in it, confirmed with their password. */
export function DeleteAccountSection() {
  const { t } = useTranslation("settings");
  const [open, setOpen] = useState(false);
  return (
    <section className="settings-section" aria-labelledby="delete-account-heading">
      <div className="settings-section__header">
        <h3 id="delete-account-heading" className="settings-section__title">
          {t("Delete account")}
        </h3>
        <Button variant="danger" size="sm" onClick={() => setOpen(true)}>
          {t("Delete account")}
        </Button>
      </div>
      <p className="settings-section__hint">
        {t(
          "Permanently deletes your account with all your clients, conversations, messages and files, and cancels your subscription at once. This cannot be undone.",
        )}
      </p>
      {open && <DeleteAccountDialog onClose={() => setOpen(false)} />}
    </section>
  );
}

function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation("settings");
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();

  const remove = useMutation({
    mutationFn: (password: string | undefined) =>
      apiPost("/api/user/delete", password === undefined ? {} : { password }),
    onSuccess: () => {
      forgetSignedInUser(queryClient);
      // Shown as the browser leaves for the sign-in page. Toasts outlive navigation, so the
      // notice is given here rather than passed along in the URL (the owner-only guard, seeing
      // nobody signed in, redirects to /auth as well and would drop a query string).
      toast({
        title: t("Your account has been deleted"),
        description: t("Everything in it is gone. We've emailed you a confirmation."),
        variant: "success",
      });
      navigate("/auth", { replace: true });
    },
    onError: (error) =>
      toast({
        title: t("Your account was not deleted"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });

  return (
    <PasswordConfirmDialog
      title={t("Delete your account permanently?")}
      googleNote={t(
        "Your account signs in with Google: to delete your account, your last sign-in must be less than 10 minutes ago. If it is older, sign out and sign in with Google again first.",
      )}
      submitLabel={t("Delete my account")}
      pendingLabel={t("Deleting...")}
      variant="danger"
      pending={remove.isPending}
      onConfirm={(password) => remove.mutate(password)}
      onClose={onClose}
    >
      <p>
        {t(
          "Every client and their conversation, every message and file, your pictures and your sessions are deleted for good, and your clients lose access. A paid subscription is cancelled at once, without a refund for the rest of the period.",
        )}
      </p>
      <p>
        {t(
          "If you have a team, its people keep their accounts, each on their own. To keep the workspace going without you, make one of them the owner in the Team tab first.",
        )}
      </p>
      <p>{t("This cannot be undone.")}</p>
    </PasswordConfirmDialog>
  );
}
