import {
  type ComponentType,
  createContext,
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
} from "react";
import type { CurrentToast, ToastOptions, ToastViewProps } from "./toast-view";

export type { ToastOptions, ToastVariant } from "./toast-view";

type ShowToast = (options: ToastOptions) => void;

/** A step the user is in (an open dialog, a client's conversation); `close` ends a dialog's. */
interface Step {
  close?: () => void;
}

const ToastContext = createContext<{
  show: ShowToast;
  /** Opens a step; the returned function ends it. */
  open: (close?: () => void) => () => void;
} | null>(null);

/**
 * The notice's rendering (Radix Toast) is not part of a page's first load: a phone on a slow
 * line gets the conversation first (issue 12's budget), and the view arrives while the browser
 * is idle, or at once when a notice is shown before that. A chunk that cannot be had (a phone
 * losing its line, a deploy that replaced the hashed file) must not take the page down with
 * it: the notices are then not shown, and the page stays.
 */
const ToastView = lazy<ComponentType<ToastViewProps>>(() =>
  import("./toast-view").catch(() => ({ default: () => null })),
);

/** Shows a notice; a new one replaces the one on screen. */
export function useToast(): ShowToast {
  const toast = useContext(ToastContext);
  if (!toast) throw new Error("useToast needs a <ToastProvider> above it");
  return toast.show;
}

/**
 * While `open` is truthy the user is in a step: an error notice shown meanwhile belongs to the
 * innermost step open and goes when that step ends (the dialog closes, the view goes). A
 * dialog passes `close`: Escape then closes it even while a notice is on screen.
 */
export function useToastStep(open: unknown, close?: () => void): void {
  const steps = useContext(ToastContext)!.open;
  const closeRef = useRef(close);
  closeRef.current = close;
  const closes = !!close;
  useEffect(
    () => (open ? steps(closes ? () => closeRef.current?.() : undefined) : undefined),
    [open, closes, steps],
  );
}

function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === "function") {
    const handle = window.requestIdleCallback(task, { timeout: 3000 });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(task, 1000);
  return () => window.clearTimeout(handle);
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<CurrentToast | null>(null);
  const [viewWanted, setViewWanted] = useState(false);
  /** Open steps, innermost last; `layout` counts their changes (the view moves clear of a dialog). */
  const steps = useRef<Step[]>([]).current;
  const [layout, setLayout] = useState(0);
  const [context] = useState(() => ({
    show: (options: ToastOptions) => {
      setViewWanted(true);
      const step = options.variant === "destructive" ? steps.at(-1) : undefined;
      setCurrent((previous) => ({ ...options, id: (previous?.id ?? 0) + 1, open: true, step }));
    },
    open: (close?: () => void) => {
      const step = { close };
      steps.push(step);
      setLayout((count) => count + 1);
      return () => {
        steps.splice(steps.indexOf(step), 1);
        setLayout((count) => count + 1);
        setCurrent((shown) => (shown?.step === step ? { ...shown, open: false } : shown));
      };
    },
  }));
  const onOpenChange = useCallback((id: number, open: boolean) => {
    setCurrent((shown) => (shown?.id === id ? { ...shown, open } : shown));
  }, []);
  /** Escape while a notice is up belongs to the innermost open dialog: true when one took it. */
  const onEscape = useCallback(() => {
    const dialog = steps.findLast((step) => step.close);
    dialog?.close?.();
    return !!dialog;
  }, [steps]);
  // The viewport (F8, the screen-reader region) is on the page soon after the first screen.
  useEffect(() => whenIdle(() => setViewWanted(true)), []);

  return (
    <ToastContext.Provider value={context}>
      {children}
      {viewWanted && (
        <Suspense fallback={null}>
          <ToastView
            current={current}
            onOpenChange={onOpenChange}
            onEscape={onEscape}
            layout={layout}
          />
        </Suspense>
      )}
    </ToastContext.Provider>
  );
}
