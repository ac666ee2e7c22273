import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { apiPost, serverMessage } from "../api/client";
import { Button } from "../ui/button";
import { useToast } from "../ui/toast";
import { PasswordConfirmDialog } from "./password-confirm-dialog";

/** Ends every other session of the owner's account (a lost laptop, a shared computer). */
export function SignOutEverywhereSection() {
  const [open, setOpen] = useState(false);
  return (
    <section className="settings-section" aria-labelledby="sign-out-everywhere-heading">
      <div className="settings-section__header">
        <h3 id="sign-out-everywhere-heading" className="settings-section__title">
          Signed-in devices
        </h3>
        <Button variant="secondary" size="sm" onClick={() => setOpen(true)}>
          Sign out everywhere else
        </Button>
      </div>
      <p className="settings-section__hint">
        Signs you out of every other browser, phone and desktop app at once. You stay signed in
        here.
      </p>
      {open && <SignOutEverywhereDialog onClose={() => setOpen(false)} />}
    </section>
  );
}

function SignOutEverywhereDialog({ onClose }: { onClose: () => void }) {
  const toast = useToast();
  const signOut = useMutation({
    mutationFn: (password: string | undefined) =>
      apiPost("/api/user/sign-out-everywhere", password === undefined ? {} : { password }),
    onSuccess: () => {
      toast({
        title: "Signed out everywhere else",
        description: "Every other browser and device is signed out.",
        variant: "success",
      });
      onClose();
    },
    onError: (error) =>
      toast({
        title: "Failed to sign out everywhere",
        description: serverMessage(error, "Please try again"),
        variant: "destructive",
      }),
  });

  return (
    <PasswordConfirmDialog
      title="Sign out everywhere else?"
      action="sign out everywhere"
      submitLabel="Sign out everywhere else"
      pendingLabel="Signing out..."
      pending={signOut.isPending}
      onConfirm={(password) => signOut.mutate(password)}
      onClose={onClose}
    >
      <p>
        Every other browser, phone and desktop app signed in to your account is signed out at once,
        and its live updates stop. Use this if a device was lost or someone else may be signed in.
      </p>
    </PasswordConfirmDialog>
  );
}
