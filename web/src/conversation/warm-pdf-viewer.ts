import { useEffect } from "react";

type IdleHandle = ReturnType<typeof setTimeout> | number;

/**
 * Gets the PDF viewer ready while the conversation is idle, for a PDF that waits for this
 * person's decision (issue 27's Measure): the viewer's code (pdf.js) runs and its worker
 * starts before the click on Preview, not after it, which on a phone is most of the wait for
 * the first page. Nothing of it is in the page's first load: it is fetched once the page is
 * idle, and only when such a file is on screen.
 */
export function useWarmPdfViewer(wanted: boolean): void {
  useEffect(() => {
    if (!wanted) return;
    const warm = () => {
      import("./pdf-viewer").then(
        (viewer) => viewer.startPdfWorker(),
        // Not fetched (offline, a new deployment): the preview tries again when opened.
        () => undefined,
      );
    };
    const handle: IdleHandle =
      typeof window.requestIdleCallback === "function"
        ? window.requestIdleCallback(warm, { timeout: 3_000 })
        : setTimeout(warm, 1_000);
    return () => {
      if (typeof window.cancelIdleCallback === "function" && typeof handle === "number")
        window.cancelIdleCallback(handle);
      else clearTimeout(handle);
    };
  }, [wanted]);
}
