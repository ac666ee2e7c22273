import * as RadixDialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "./button";
import { CloseIcon } from "./notice-icons";
import { useToastStep } from "./toast-steps";
import "./dialog.css";

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  width?: "normal" | "wide";
  /** Extra classes on the dialog box (e.g. the file preview's full-height layout). */
  className?: string;
  /** Where the focus goes once closed (preventDefault() keeps it from returning to the opener). */
  onCloseAutoFocus?: (event: Event) => void;
  children: ReactNode;
}

/** A modal dialog: focus trapped, Escape and the close button close it, title announced. */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  width = "normal",
  className,
  onCloseAutoFocus,
  children,
}: DialogProps) {
  const { t } = useTranslation("common");
  // An error shown while the dialog is open closes with it; Escape is the dialog's.
  useToastStep(open, () => onOpenChange(false));
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog__overlay" />
        <RadixDialog.Content
          className={`dialog__content${width === "wide" ? " dialog__content--wide" : ""}${className ? ` ${className}` : ""}`}
          {...(description ? {} : { "aria-describedby": undefined })}
          {...(onCloseAutoFocus && { onCloseAutoFocus })}
        >
          <div className="dialog__header" data-toast-clear>
            <div>
              <RadixDialog.Title className="dialog__title">{title}</RadixDialog.Title>
              {description && (
                <RadixDialog.Description className="dialog__description">
                  {description}
                </RadixDialog.Description>
              )}
            </div>
            <RadixDialog.Close asChild>
              <Button variant="ghost" size="icon" className="dialog__close" aria-label={t("Close")}>
                <CloseIcon />
              </Button>
            </RadixDialog.Close>
          </div>
          <div className="dialog__body">{children}</div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** Buttons at the bottom of a dialog's form. */
export function DialogFooter({ children }: { children: ReactNode }) {
  return <div className="dialog__footer">{children}</div>;
}

export const DialogClose = RadixDialog.Close;
