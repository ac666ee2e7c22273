import { type FormEvent, type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { useCurrentUser } from "../api/current-user";
import { Button, type ButtonVariant } from "../ui/button";
import { Dialog, DialogClose, DialogFooter } from "../ui/dialog";
import { TextField } from "../ui/field";

interface PasswordConfirmDialogProps {
  title: string;
  /** What the change does, said before the proof is asked for. */
  children: ReactNode;
  /**
   * Said to an account made with Google instead of asking a password: that a sign-in within
   * 10 minutes confirms this change (a whole sentence per change, for translators).
   */
  googleNote: string;
  submitLabel: string;
  pendingLabel: string;
  variant?: ButtonVariant;
  pending: boolean;
  /** The password typed; undefined for an account without one. */
  onConfirm: (password: string | undefined) => void;
  onClose: () => void;
}

/**
 * A change a stolen session must not make alone (server/policies/recent-sign-in.ts), confirmed
 * with the password; an account made with Google has none, and is told that a sign-in within
 * 10 minutes confirms instead.
 */
export function PasswordConfirmDialog(props: PasswordConfirmDialogProps) {
  const { t } = useTranslation("settings");
  const { data: user } = useCurrentUser();
  const [password, setPassword] = useState("");
  const hasPassword = user?.hasPassword !== false;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onConfirm(hasPassword ? password : undefined);
  };

  return (
    <Dialog
      open
      onOpenChange={(next) => !next && !props.pending && props.onClose()}
      title={props.title}
    >
      <form className="form-stack" onSubmit={submit}>
        <div className="confirm-dialog__text">
          {props.children}
          {!hasPassword && <p>{props.googleNote}</p>}
        </div>
        {hasPassword && (
          <TextField
            label={t("Your password")}
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        )}
        <DialogFooter>
          <DialogClose asChild>
            <Button type="button" variant="secondary" disabled={props.pending}>
              {t("Cancel")}
            </Button>
          </DialogClose>
          <Button type="submit" variant={props.variant} loading={props.pending}>
            {props.pending ? props.pendingLabel : props.submitLabel}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
