import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "./button";
import { Dialog, DialogClose, DialogFooter } from "./dialog";

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** The label while the action runs, e.g. "Deleting...". */
  busyLabel: string;
  busy: boolean;
  destructive?: boolean;
  onConfirm: () => void;
}

/** Asks before an action that cannot be taken back. Escape, Close and Cancel leave it undone. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  children,
  confirmLabel,
  busyLabel,
  busy,
  destructive = false,
  onConfirm,
}: ConfirmDialogProps) {
  const { t } = useTranslation("common");
  return (
    <Dialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)} title={title}>
      <div className="confirm-dialog__text">{children}</div>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="secondary" disabled={busy}>
            {t("Cancel")}
          </Button>
        </DialogClose>
        <Button variant={destructive ? "danger" : "primary"} loading={busy} onClick={onConfirm}>
          {busy ? busyLabel : confirmLabel}
        </Button>
      </DialogFooter>
    </Dialog>
  );
}
