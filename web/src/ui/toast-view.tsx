import * as RadixToast from "@radix-ui/react-toast";
import { AlertIcon, CheckIcon, CloseIcon } from "./icons";
import "./toast.css";

export type ToastVariant = "default" | "success" | "destructive";

export interface ToastOptions {
  title: string;
  description?: string;
  variant?: ToastVariant;
}

export interface CurrentToast extends ToastOptions {
  id: number;
  open: boolean;
}

/** Spec: notices stay 5000 ms, one at a time, swipe right (50 px) to dismiss, F8 jumps to them. */
const TOAST_DURATION_MS = 5000;
const SWIPE_THRESHOLD_PX = 50;

export interface ToastViewProps {
  current: CurrentToast | null;
  onOpenChange: (id: number, open: boolean) => void;
}

/** The notice on screen (Radix Toast: timer, swipe, F8, the screen-reader announcement). */
export default function ToastView({ current, onOpenChange }: ToastViewProps) {
  const variant = current?.variant ?? "default";
  return (
    <RadixToast.Provider
      duration={TOAST_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={SWIPE_THRESHOLD_PX}
      label="Notification"
    >
      {current && (
        <RadixToast.Root
          // A new key restarts the timer and the entry animation for a replacing notice.
          key={current.id}
          open={current.open}
          onOpenChange={(open) => onOpenChange(current.id, open)}
          type={variant === "destructive" ? "foreground" : "background"}
          className={`toast toast--${variant}`}
        >
          {variant !== "default" && (
            <span className="toast__icon">
              {variant === "destructive" ? <AlertIcon /> : <CheckIcon />}
            </span>
          )}
          <div className="toast__text">
            <RadixToast.Title className="toast__title">{current.title}</RadixToast.Title>
            {current.description && (
              <RadixToast.Description className="toast__description">
                {current.description}
              </RadixToast.Description>
            )}
          </div>
          <RadixToast.Close className="toast__close" aria-label="Dismiss notification">
            <CloseIcon />
          </RadixToast.Close>
        </RadixToast.Root>
      )}
      <RadixToast.Viewport
        className="toast__viewport"
        hotkey={["F8"]}
        label="Notifications ({hotkey})"
      />
    </RadixToast.Provider>
  );
}
