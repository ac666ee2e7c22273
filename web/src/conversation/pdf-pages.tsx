/**
 * Drawing PDF pages with pdf.js, for the preview (pdf-viewer.tsx) and the comparison
 * (compare-pdf-pages.tsx). Only ever imported dynamically, with them: pdf.js is 130 KB gzip and
 * its worker more, which the client portal's first load must not carry.
 */
import {
  GlobalWorkerOptions,
  getDocument,
  PagesMapper,
  PDFWorker,
  type PDFDocumentLoadingTask,
  type PDFDocumentProxy,
  type PDFPageProxy,
  TextLayer,
} from "pdfjs-dist/legacy/build/pdf.mjs";
// The worker is one of our own built assets (same origin, hashed name): the page's CSP
// (script-src 'self', no worker-src) lets it run, and nothing loads from a CDN.
import workerUrl from "pdfjs-dist/legacy/build/pdf.worker.min.mjs?url";
import { type CSSProperties, type ReactNode, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { NextIcon, PreviousIcon } from "./preview-icons";
import { ToolbarButton } from "./preview-toolbar";

GlobalWorkerOptions.workerSrc = workerUrl;

/** pdf.js's 100%: a PDF point is 1/72 inch, a CSS pixel 1/96 inch. */
export const CSS_PER_POINT = 96 / 72;
/**
 * The most canvas pixels a page is drawn with (pdf.js's own viewer uses 2^25): past it, a page
 * at 400% on a 3x phone screen would need hundreds of MB. Beyond it the drawing gets softer.
 */
const MAX_CANVAS_PIXELS = 2 ** 24;

/**
 * One pdf.js worker for every PDF the page opens: starting a worker (fetching and running
 * pdf.js's worker script) is most of a phone's first second, so it is started once, by the
 * first preview or before it while the conversation is idle (warm-pdf-viewer.ts), and kept.
 */
let sharedWorker: PDFWorker | null = null;
export function startPdfWorker(): PDFWorker {
  if (!sharedWorker || sharedWorker.destroyed) sharedWorker = new PDFWorker();
  return sharedWorker;
}

/** Starts loading the PDF at `url`; destroying the task leaves the shared worker running. */
export function openPdf(url: string): PDFDocumentLoadingTask {
  return getDocument({
    url,
    worker: startPdfWorker(),
    // Same origin, so the session cookie goes along. String evaluation stays off: the CSP
    // has no 'unsafe-eval' (pdf.js would try it, and log a violation, to draw fonts faster).
    isEvalSupported: false,
    enableXfa: false,
  });
}

/**
 * Page `pageNumber` of `pdf` (null until it is read, or without a document). pdf.js 5.4.624
 * keeps one page count for every open document (its PagesMapper), the count of the last one
 * loaded, and getPage refuses a page past it ("Invalid page request"): with two versions open
 * (the comparison), page 3 of the longer one failed whenever the shorter loaded last
 * (mozilla/pdf.js#20629, fixed after 5.4.624). The count is set to this document's first;
 * without moved pages (we move none) that count is all the mapper is used for.
 */
export function usePdfPage(
  pdf: PDFDocumentProxy | null,
  pageNumber: number,
  onFailed: () => void,
): PDFPageProxy | null {
  const [page, setPage] = useState<PDFPageProxy | null>(null);
  const onFailedRef = useRef(onFailed);
  onFailedRef.current = onFailed;
  useEffect(() => {
    if (!pdf) return;
    let current = true;
    PagesMapper.instance.pagesNumber = pdf.numPages;
    pdf.getPage(pageNumber).then(
      (next) => {
        if (current) setPage(next);
      },
      () => {
        if (current) onFailedRef.current();
      },
    );
    return () => {
      current = false;
    };
  }, [pdf, pageNumber]);
  return page;
}

interface DrawnPageProps {
  page: PDFPageProxy;
  /** 1 is pdf.js's 100% (CSS_PER_POINT). */
  zoom: number;
  /** The drawing failed (not merely cancelled by a newer one). */
  onFailed: () => void;
  /** Drawn over the page, in its box (the marks). */
  children?: ReactNode;
}

/**
 * One page at `zoom`: the drawing on a canvas (redrawn when the page or zoom changes, a newer
 * drawing cancelling the older one), and the page's text over it, transparent, so that it can
 * be selected, copied and read aloud.
 */
export function DrawnPage({ page, zoom, onFailed, children }: DrawnPageProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const textRef = useRef<HTMLDivElement>(null);
  const onFailedRef = useRef(onFailed);
  onFailedRef.current = onFailed;
  const base = page.getViewport({ scale: CSS_PER_POINT });
  const cssWidth = Math.floor(base.width * zoom);
  const cssHeight = Math.floor(base.height * zoom);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || cssWidth === 0) return;
    const viewport = page.getViewport({ scale: CSS_PER_POINT * zoom });
    const density = Math.min(
      window.devicePixelRatio || 1,
      Math.sqrt(MAX_CANVAS_PIXELS / (viewport.width * viewport.height)),
    );
    canvas.width = Math.floor(viewport.width * density);
    canvas.height = Math.floor(viewport.height * density);
    const task = page.render({
      canvas,
      viewport,
      transform: density === 1 ? undefined : [density, 0, 0, density, 0, 0],
    });
    task.promise.then(
      () => {
        canvas.dataset.rendered = "true";
      },
      (error: unknown) => {
        if ((error as { name?: string } | null)?.name !== "RenderingCancelledException")
          onFailedRef.current();
      },
    );
    return () => {
      delete canvas.dataset.rendered;
      task.cancel();
    };
  }, [page, zoom, cssWidth]);

  useEffect(() => {
    const container = textRef.current;
    if (!container || cssWidth === 0) return;
    container.replaceChildren();
    const layer = new TextLayer({
      textContentSource: page.streamTextContent(),
      container,
      viewport: page.getViewport({ scale: CSS_PER_POINT * zoom }),
    });
    // Without its text a page still shows; nothing to tell the person.
    layer.render().catch(() => undefined);
    return () => layer.cancel();
  }, [page, zoom, cssWidth]);

  return (
    <div
      className="preview-stage__page"
      style={
        {
          width: cssWidth,
          height: cssHeight,
          "--total-scale-factor": CSS_PER_POINT * zoom,
        } as CSSProperties
      }
    >
      <canvas ref={canvasRef} className="preview-stage__drawing" />
      <div ref={textRef} className="pdf-text" />
      {children}
    </div>
  );
}

/** Previous page, "Page 2 of 5", Next page: the toolbar's page control. */
export function PageControls({
  page,
  pageCount,
  pageText,
  onGoTo,
}: {
  page: number;
  pageCount: number;
  pageText: string;
  onGoTo: (page: number) => void;
}) {
  const { t } = useTranslation("conversation");
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of buttons, not a form's fieldset
    <div className="preview-toolbar__group" role="group" aria-label={t("Pages")}>
      <ToolbarButton
        label={t("Previous page")}
        icon={<PreviousIcon />}
        disabled={page <= 1}
        onClick={() => onGoTo(page - 1)}
      />
      <span className="preview-toolbar__pages" aria-live="polite">
        {pageText}
      </span>
      <ToolbarButton
        label={t("Next page")}
        icon={<NextIcon />}
        disabled={page >= pageCount}
        onClick={() => onGoTo(page + 1)}
      />
    </div>
  );
}
