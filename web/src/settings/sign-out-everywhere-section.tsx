import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { apiPost, serverMessage } from "../api/client";
import { useCurrentUser } from "../api/current-user";
import { Button } from "../ui/button";
import { Dialog, DialogClose, DialogFooter } from "../ui/dialog";
import { TextField } from "../ui/field";
import { useToast } from "../ui/toast";

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
  const { data: user } = useCurrentUser();
  const [password, setPassword] = useState("");
  const toast = useToast();
  // Accounts made with Google have no password: a sign-in within 10 minutes confirms instead.
  const hasPassword = user?.hasPassword !== false;

  const signOut = useMutation({
    mutationFn: () => apiPost("/api/user/sign-out-everywhere", hasPassword ? { password } : {}),
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

  const submit = (event: FormEvent) => {
    event.preventDefault();
    signOut.mutate();
  };

  return (
    <Dialog
      open
      onOpenChange={(next) => !next && !signOut.isPending && onClose()}
      title="Sign out everywhere else?"
    >
      <form className="form-stack" onSubmit={submit}>
        <div className="confirm-dialog__text">
          <p>
            Every other browser, phone and desktop app signed in to your account is signed out at
            once, and its live updates stop. Use this if a device was lost or someone else may be
            signed in.
          </p>
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
            <Button type="button" variant="secondary" disabled={signOut.isPending}>
              Cancel
            </Button>
          </DialogClose>
          <Button type="submit" loading={signOut.isPending}>
            {signOut.isPending ? "Signing out..." : "Sign out everywhere else"}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
