import {
  type ComponentType,
  createContext,
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useState,
} from "react";
import type { CurrentToast, ToastOptions, ToastViewProps } from "./toast-view";

export type { ToastOptions, ToastVariant } from "./toast-view";

type ShowToast = (options: ToastOptions) => void;

const ToastContext = createContext<ShowToast | null>(null);

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
  return toast;
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
  const toast = useCallback<ShowToast>((options) => {
    setViewWanted(true);
    setCurrent((previous) => ({ ...options, id: (previous?.id ?? 0) + 1, open: true }));
  }, []);
  const onOpenChange = useCallback((id: number, open: boolean) => {
    setCurrent((shown) => (shown?.id === id ? { ...shown, open } : shown));
  }, []);
  // The viewport (F8, the screen-reader region) is on the page soon after the first screen.
  useEffect(() => whenIdle(() => setViewWanted(true)), []);

  return (
    <ToastContext.Provider value={toast}>
      {children}
      {viewWanted && (
        <Suspense fallback={null}>
          <ToastView current={current} onOpenChange={onOpenChange} />
        </Suspense>
      )}
    </ToastContext.Provider>
  );
}
