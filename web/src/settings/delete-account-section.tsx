import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { apiPost, serverMessage } from "../api/client";
import { forgetSignedInUser, useCurrentUser } from "../api/current-user";
import { Button } from "../ui/button";
import { Dialog, DialogClose, DialogFooter } from "../ui/dialog";
import { TextField } from "../ui/field";
import { useToast } from "../ui/toast";

/**
 * Shown as the browser leaves for the sign-in page. Toasts outlive navigation, so the notice
 * is given here rather than passed along in the URL (the owner-only guard, seeing nobody
 * signed in, redirects to /auth as well and would drop a query string).
 */
const ACCOUNT_DELETED_NOTICE = {
  title: "Your account has been deleted",
  description: "Everything in it is gone. We've emailed you a confirmation.",
  variant: "success",
} as const;

/** The owner deletes their own account: everything in it, confirmed with their password. */
export function DeleteAccountSection() {
  const [open, setOpen] = useState(false);
  return (
    <section className="settings-section" aria-labelledby="delete-account-heading">
      <div className="settings-section__header">
        <h3 id="delete-account-heading" className="settings-section__title">
          Delete account
        </h3>
        <Button variant="danger" size="sm" onClick={() => setOpen(true)}>
          Delete account
        </Button>
      </div>
      <p className="settings-section__hint">
        Permanently deletes your account with all your clients, conversations, messages and files,
        and cancels your subscription at once. This cannot be undone.
      </p>
      {open && <DeleteAccountDialog onClose={() => setOpen(false)} />}
    </section>
  );
}

function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const { data: user } = useCurrentUser();
  const [password, setPassword] = useState("");
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  // Accounts made with Google have no password: a sign-in within 10 minutes confirms instead.
  const hasPassword = user?.hasPassword !== false;

  const remove = useMutation({
    mutationFn: () => apiPost("/api/user/delete", hasPassword ? { password } : {}),
    onSuccess: () => {
      forgetSignedInUser(queryClient);
      toast(ACCOUNT_DELETED_NOTICE);
      navigate("/auth", { replace: true });
    },
    onError: (error) =>
      toast({
        title: "Your account was not deleted",
        description: serverMessage(error, "Please try again"),
        variant: "destructive",
      }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    remove.mutate();
  };

  return (
    <Dialog
      open
      onOpenChange={(next) => !next && !remove.isPending && onClose()}
      title="Delete your account permanently?"
    >
      <form className="form-stack" onSubmit={submit}>
        <div className="confirm-dialog__text">
          <p>
            Every client and their conversation, every message and file, your pictures and your
            sessions are deleted for good, and your clients lose access. A paid subscription is
            cancelled at once, without a refund for the rest of the period.
          </p>
          <p>This cannot be undone.</p>
          {!hasPassword && (
            <p>
              Your account signs in with Google: if your last sign-in was more than 10 minutes ago,
              sign out and sign in with Google again first.
            </p>
          )}
        </div>
        {hasPassword && (
          <TextField
            label="Your password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        )}
        <DialogFooter>
          <DialogClose asChild>
            <Button type="button" variant="secondary" disabled={remove.isPending}>
              Cancel
            </Button>
          </DialogClose>
          <Button type="submit" variant="danger" loading={remove.isPending}>
            {remove.isPending ? "Deleting..." : "Delete my account"}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
