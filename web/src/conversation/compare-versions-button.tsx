import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Dialog } from "../ui/dialog";
import { Spinner } from "../ui/spinner";
import type { CompareVersionsProps } from "./compare-versions";
import "./compare-versions-button.css";

/**
 * The comparison comes with its first use (pdf.js later still, with the first PDF compared):
 * the portal's first load carries only this button. A chunk that cannot be fetched (offline,
 * a new deployment) says so in the dialog instead.
 */
const CompareVersionsDialog = lazy(() =>
  import("./compare-versions").catch(() => ({ default: ComparisonUnavailable })),
);

function ComparisonUnavailable({ onClose }: CompareVersionsProps) {
  const { t } = useTranslation("conversation");
  return (
    <Dialog open onOpenChange={onClose} title={t("Compare versions")}>
      <p role="alert">
        {t("The comparison couldn't be loaded. Check your connection and try again.")}
      </p>
    </Dialog>
  );
}

/** "Compare versions" in a file's History, for a thread of two versions or more. */
export function CompareVersionsButton(props: Omit<CompareVersionsProps, "onClose">) {
  const { t } = useTranslation("conversation");
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  // Closed, the focus comes back here (the dialog has no Radix trigger to return it to).
  useEffect(() => {
    if (wasOpen.current && !open) buttonRef.current?.focus();
    wasOpen.current = open;
  }, [open]);
  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className="file-history__toggle file-history__compare"
        onClick={() => setOpen(true)}
      >
        {t("Compare versions")}
      </button>
      {open && (
        <Suspense fallback={<Spinner size="sm" label={t("Loading the comparison")} />}>
          <CompareVersionsDialog {...props} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
