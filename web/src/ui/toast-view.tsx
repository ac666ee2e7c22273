import * as RadixToast from "@radix-ui/react-toast";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { AlertIcon, CheckIcon, CloseIcon } from "./notice-icons";
import { innermostDialog, innermostStep, onStepsChange, type ToastStep } from "./toast-steps";
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

/**
 * Spec: notices stay 5000 ms, one at a time, swipe right (50 px; left in right-to-left text) to
 * dismiss, F8 jumps to them.
 */
const TOAST_DURATION_MS = 5000;
const SWIPE_THRESHOLD_PX = 50;

export interface ToastViewProps {
  current: CurrentToast | null;
  onOpenChange: (id: number, open: boolean) => void;
}

/**
 * How far down the notices must start to leave clear what is marked data-toast-clear above
 * the middle of the screen in their column: the TEST MODE and payment bars, an open dialog's
 * title and close button.
 */
function clearTop(viewport: HTMLElement): number {
  const column = viewport.getBoundingClientRect();
  let top = 0;
  for (const element of document.querySelectorAll("[data-toast-clear]")) {
    const box = element.getBoundingClientRect();
    if (box.right > column.left && box.left < column.right && box.top < window.innerHeight / 2)
      top = Math.max(top, box.bottom);
  }
  return top;
}

/** The notice on screen (Radix Toast: timer, swipe, F8, the screen-reader announcement). */
export default function ToastView({ current, onOpenChange }: ToastViewProps) {
  const { t } = useTranslation("common");
  const variant = current?.variant ?? "default";
  const viewport = useRef<HTMLOListElement>(null);
  const toast = useRef<HTMLLIElement>(null);
  const [top, setTop] = useState(0);
  /** Counts steps opening and ending: a dialog may have come or gone under the notice. */
  const [layout, setLayout] = useState(0);
  const shown = current?.open ? current.id : 0;
  /** The error notice on screen and the step it belongs to (toast-steps.ts). */
  const owner = useRef<{ id: number; step?: ToastStep }>(undefined);
  const error = variant === "destructive";
  useEffect(() => {
    if (shown && error) owner.current = { id: shown, step: innermostStep() };
  }, [shown, error]);
  useEffect(
    () =>
      onStepsChange((ended) => {
        setLayout((count) => count + 1);
        const notice = owner.current;
        if (notice?.step && notice.step === ended) onOpenChange(notice.id, false);
      }),
    [onOpenChange],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new layout: a dialog came or went
  useLayoutEffect(() => {
    const element = viewport.current;
    if (!shown || !element) return;
    const place = () => setTop(clearTop(element));
    place();
    // While the notice is up: a bar may appear after it (the TEST MODE bar once the billing
    // mode is known), a dialog may settle. Once a frame at most.
    let frame = 0;
    const later = () => {
      if (!frame)
        frame = requestAnimationFrame(() => {
          frame = 0;
          place();
        });
    };
    const changes = new MutationObserver(later);
    changes.observe(document.body, { childList: true, subtree: true });
    window.addEventListener("resize", later);
    return () => {
      changes.disconnect();
      cancelAnimationFrame(frame);
      window.removeEventListener("resize", later);
    };
  }, [shown, layout]);
  return (
    <RadixToast.Provider
      duration={TOAST_DURATION_MS}
      // Towards the edge the notices sit on: the right, the left in right-to-left text.
      swipeDirection={document.documentElement.dir === "rtl" ? "left" : "right"}
      swipeThreshold={SWIPE_THRESHOLD_PX}
      label={t("Notification")}
    >
      {current && (
        <RadixToast.Root
          // A new key restarts the timer and the entry animation for a replacing notice.
          key={current.id}
          open={current.open}
          onOpenChange={(open) => onOpenChange(current.id, open)}
          type={variant === "destructive" ? "foreground" : "background"}
          className={`toast toast--${variant}`}
          ref={toast}
          onEscapeKeyDown={(event) => {
            // A dialog under the notice is what Escape is for; the notice stays its 5 s.
            const dialog = innermostDialog();
            if (!dialog || toast.current?.contains(event.target as Node)) return;
            event.preventDefault();
            dialog.close?.();
          }}
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
          <RadixToast.Close className="toast__close" aria-label={t("Dismiss notification")}>
            <CloseIcon />
          </RadixToast.Close>
        </RadixToast.Root>
      )}
      <RadixToast.Viewport
        ref={viewport}
        style={{ top }}
        className="toast__viewport"
        hotkey={["F8"]}
        // {hotkey} is Radix's placeholder (F8), kept as is in every language.
        label={t("Notifications ({hotkey})")}
      />
    </RadixToast.Provider>
  );
}
