/**
 * The PDF preview, drawn with pdf.js. This module is only ever imported dynamically (when a PDF
 * preview opens): pdf.js is 130 KB gzip and its worker more, which the client portal's first
 * load must not carry.
 */
import type { PDFDocumentProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Spinner } from "../ui/spinner";
import { MarkLayer } from "./mark-layer";
import type { Mark, ReviewTarget } from "./marks-api";
import { CSS_PER_POINT, DrawnPage, openPdf, PageControls, usePdfPage } from "./pdf-pages";
import { FitWidthIcon } from "./preview-icons";
import { PreviewStage, PreviewToolbar, ToolbarButton, ZoomControls } from "./preview-toolbar";
import { usePreviewZoom, useViewportSize } from "./preview-zoom";
import { PreviewFailed } from "./preview-failed";
import { AddMarkButton, centreDraft, ReviewLayout } from "./review-layout";
import { useMarks } from "./use-marks";
import { MAX_ZOOM, MIN_ZOOM } from "./zoom-steps";

// Warming the viewer (warm-pdf-viewer.ts) starts the worker every PDF of the page shares.
export { startPdfWorker } from "./pdf-pages";

/** Room around the page (the padding of .preview-stage__content). */
const STAGE_PADDING = 16;

interface PdfViewerProps {
  url: string;
  fileName: string;
  /** A version sent for approval: its marks over the pages, and the marks panel. */
  review?: ReviewTarget | false | null;
}

type Loaded =
  | { state: "loading" }
  | { state: "failed" }
  | { state: "ready"; pdf: PDFDocumentProxy };

export default function PdfViewer({ url, fileName, review = null }: PdfViewerProps) {
  const { t } = useTranslation("conversation");
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  const [pageNumber, setPageNumber] = useState(1);
  const [drawFailed, setDrawFailed] = useState(false);
  const viewportRef = useRef<HTMLElement>(null);
  const room = useViewportSize(viewportRef);
  const marks = useMarks(review || null);

  useEffect(() => {
    setLoaded({ state: "loading" });
    setPageNumber(1);
    const task = openPdf(url);
    task.promise.then(
      (pdf) => setLoaded({ state: "ready", pdf }),
      () => setLoaded({ state: "failed" }),
    );
    return () => {
      void task.destroy();
    };
  }, [url]);

  const pdf = loaded.state === "ready" ? loaded.pdf : null;
  const pageCount = pdf?.numPages ?? 0;

  const page = usePdfPage(pdf, pageNumber, () => setDrawFailed(true));

  // The page's size at 100%, in CSS pixels.
  const base = page?.getViewport({ scale: CSS_PER_POINT });
  const fitWidth =
    base && room
      ? Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, (room.width - 2 * STAGE_PADDING) / base.width))
      : 1;
  const { zoom, fitted, zoomIn, zoomOut, fitToView } = usePreviewZoom(viewportRef, fitWidth);

  const goTo = (next: number) => {
    setPageNumber(next);
    viewportRef.current?.scrollTo({ top: 0, left: 0 });
  };

  const showMark = (mark: Mark) => {
    if (mark.page !== pageNumber && mark.page <= pageCount) setPageNumber(mark.page);
    marks?.select(mark.id);
  };
  const placeInMiddle = () => {
    const stage = viewportRef.current;
    const layer = stage?.querySelector<HTMLElement>(".mark-layer");
    if (stage && layer) marks?.setDraft(centreDraft(stage, layer, pageNumber), true);
  };

  if (loaded.state === "failed" || drawFailed)
    return <PreviewFailed url={url} fileName={fileName} />;

  const pageText =
    pageCount > 0 ? t("Page {{page}} of {{total}}", { page: pageNumber, total: pageCount }) : "";
  const stageView = (
    <PreviewStage
      ref={viewportRef}
      label={
        pageText
          ? t("{{file}}, page {{page}} of {{total}}", {
              file: fileName,
              page: pageNumber,
              total: pageCount,
            })
          : fileName
      }
    >
      {page ? (
        <DrawnPage page={page} zoom={zoom} onFailed={() => setDrawFailed(true)}>
          {marks && <MarkLayer state={marks} page={pageNumber} ownsDrawing />}
        </DrawnPage>
      ) : (
        <Spinner label={t("Loading preview")} />
      )}
    </PreviewStage>
  );
  return (
    <div className="preview-viewer">
      <PreviewToolbar>
        <PageControls page={pageNumber} pageCount={pageCount} pageText={pageText} onGoTo={goTo} />
        {marks && <AddMarkButton state={marks} />}
        <ZoomControls zoom={zoom} onZoomIn={zoomIn} onZoomOut={zoomOut}>
          <ToolbarButton
            label={t("Fit width")}
            icon={<FitWidthIcon />}
            pressed={fitted}
            onClick={() => fitToView()}
          />
        </ZoomControls>
      </PreviewToolbar>
      {marks ? (
        <ReviewLayout state={marks} onShow={showMark} placeInMiddle={placeInMiddle}>
          {stageView}
        </ReviewLayout>
      ) : (
        stageView
      )}
    </div>
  );
}
