import * as RadixToast from "@radix-ui/react-toast";
import { createContext, type ReactNode, useCallback, useContext, useState } from "react";
import { AlertIcon, CheckIcon, CloseIcon } from "./icons";
import "./toast.css";

/** Spec: notices stay 5000 ms, one at a time, swipe right (50 px) to dismiss, F8 jumps to them. */
const TOAST_DURATION_MS = 5000;
const SWIPE_THRESHOLD_PX = 50;

export type ToastVariant = "default" | "success" | "destructive";

export interface ToastOptions {
  title: string;
  description?: string;
  variant?: ToastVariant;
}

type ShowToast = (options: ToastOptions) => void;

const ToastContext = createContext<ShowToast | null>(null);

/** Shows a notice; a new one replaces the one on screen. */
export function useToast(): ShowToast {
  const toast = useContext(ToastContext);
  if (!toast) throw new Error("useToast needs a <ToastProvider> above it");
  return toast;
}

interface CurrentToast extends ToastOptions {
  id: number;
  open: boolean;
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<CurrentToast | null>(null);
  const toast = useCallback<ShowToast>((options) => {
    setCurrent((previous) => ({ ...options, id: (previous?.id ?? 0) + 1, open: true }));
  }, []);
  const variant = current?.variant ?? "default";

  return (
    <ToastContext.Provider value={toast}>
      <RadixToast.Provider
        duration={TOAST_DURATION_MS}
        swipeDirection="right"
        swipeThreshold={SWIPE_THRESHOLD_PX}
        label="Notification"
      >
        {children}
        {current && (
          <RadixToast.Root
            // A new key restarts the timer and the entry animation for a replacing notice.
            key={current.id}
            open={current.open}
            onOpenChange={(open) =>
              setCurrent((shown) => (shown?.id === current.id ? { ...shown, open } : shown))
            }
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
    </ToastContext.Provider>
  );
}
