/**
 * The PDF preview, drawn with pdf.js. This module is only ever imported dynamically (when a PDF
 * preview opens): pdf.js is 130 KB gzip and its worker more, which the client portal's first
 * load must not carry.
 */
import {
  GlobalWorkerOptions,
  getDocument,
  type PDFDocumentProxy,
  type PDFPageProxy,
  TextLayer,
} from "pdfjs-dist/legacy/build/pdf.mjs";
// The worker is one of our own built assets (same origin, hashed name): the page's CSP
// (script-src 'self', no worker-src) lets it run, and nothing loads from a CDN.
import workerUrl from "pdfjs-dist/legacy/build/pdf.worker.min.mjs?url";
import { type CSSProperties, useEffect, useRef, useState } from "react";
import { Spinner } from "../ui/spinner";
import { FitWidthIcon, NextIcon, PreviousIcon } from "./preview-icons";
import { PreviewStage, PreviewToolbar, ToolbarButton, ZoomControls } from "./preview-toolbar";
import { usePreviewZoom, useViewportSize } from "./preview-zoom";
import { PreviewFailed } from "./preview-failed";
import { MAX_ZOOM, MIN_ZOOM } from "./zoom-steps";

GlobalWorkerOptions.workerSrc = workerUrl;

/** pdf.js's 100%: a PDF point is 1/72 inch, a CSS pixel 1/96 inch. */
const CSS_PER_POINT = 96 / 72;
/** Room around the page (the padding of .preview-stage__content). */
const STAGE_PADDING = 16;
/**
 * The most canvas pixels a page is drawn with (pdf.js's own viewer uses 2^25): past it, a page
 * at 400% on a 3x phone screen would need hundreds of MB. Beyond it the drawing gets softer.
 */
const MAX_CANVAS_PIXELS = 2 ** 24;

interface PdfViewerProps {
  url: string;
  fileName: string;
}

type Loaded =
  | { state: "loading" }
  | { state: "failed" }
  | { state: "ready"; pdf: PDFDocumentProxy };

export default function PdfViewer({ url, fileName }: PdfViewerProps) {
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  const [pageNumber, setPageNumber] = useState(1);
  const [page, setPage] = useState<PDFPageProxy | null>(null);
  const [drawFailed, setDrawFailed] = useState(false);
  const viewportRef = useRef<HTMLElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const textRef = useRef<HTMLDivElement>(null);
  const room = useViewportSize(viewportRef);

  useEffect(() => {
    setLoaded({ state: "loading" });
    setPageNumber(1);
    const task = getDocument({
      url,
      // Same origin, so the session cookie goes along. String evaluation stays off: the CSP
      // has no 'unsafe-eval' (pdf.js would try it, and log a violation, to draw fonts faster).
      isEvalSupported: false,
      enableXfa: false,
    });
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

  useEffect(() => {
    if (!pdf) return;
    let current = true;
    pdf.getPage(pageNumber).then(
      (next) => {
        if (current) setPage(next);
      },
      () => {
        if (current) setDrawFailed(true);
      },
    );
    return () => {
      current = false;
    };
  }, [pdf, pageNumber]);

  // The page's size at 100%, in CSS pixels.
  const base = page?.getViewport({ scale: CSS_PER_POINT });
  const fitWidth =
    base && room
      ? Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, (room.width - 2 * STAGE_PADDING) / base.width))
      : 1;
  const { zoom, fitted, zoomIn, zoomOut, fitToView } = usePreviewZoom(viewportRef, fitWidth);
  const cssWidth = base ? Math.floor(base.width * zoom) : 0;
  const cssHeight = base ? Math.floor(base.height * zoom) : 0;

  // Draw the page whenever it or the zoom changes; a newer drawing cancels the older one.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!page || !canvas || cssWidth === 0) return;
    const viewport = page.getViewport({ scale: CSS_PER_POINT * zoom });
    const wanted = window.devicePixelRatio || 1;
    const density = Math.min(
      wanted,
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
        if ((error as { name?: string } | null)?.name !== "RenderingCancelledException") {
          setDrawFailed(true);
        }
      },
    );
    return () => {
      delete canvas.dataset.rendered;
      task.cancel();
    };
  }, [page, zoom, cssWidth]);

  // The page's text over the drawing, transparent: it can be selected, copied and read aloud.
  useEffect(() => {
    const container = textRef.current;
    if (!page || !container || cssWidth === 0) return;
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

  const goTo = (next: number) => {
    setPageNumber(next);
    viewportRef.current?.scrollTo({ top: 0, left: 0 });
  };

  if (loaded.state === "failed" || drawFailed)
    return <PreviewFailed url={url} fileName={fileName} />;

  const pageText = pageCount > 0 ? `Page ${pageNumber} of ${pageCount}` : "";
  return (
    <div className="preview-viewer">
      <PreviewToolbar>
        {/* biome-ignore lint/a11y/useSemanticElements: a group of buttons, not a form's fieldset */}
        <div className="preview-toolbar__group" role="group" aria-label="Pages">
          <ToolbarButton
            label="Previous page"
            icon={<PreviousIcon />}
            disabled={pageNumber <= 1}
            onClick={() => goTo(pageNumber - 1)}
          />
          <span className="preview-toolbar__pages" aria-live="polite">
            {pageText}
          </span>
          <ToolbarButton
            label="Next page"
            icon={<NextIcon />}
            disabled={pageNumber >= pageCount}
            onClick={() => goTo(pageNumber + 1)}
          />
        </div>
        <ZoomControls zoom={zoom} onZoomIn={zoomIn} onZoomOut={zoomOut}>
          <ToolbarButton
            label="Fit width"
            icon={<FitWidthIcon />}
            pressed={fitted}
            onClick={() => fitToView()}
          />
        </ZoomControls>
      </PreviewToolbar>
      <PreviewStage
        ref={viewportRef}
        label={pageText ? `${fileName}, ${pageText.toLowerCase()}` : fileName}
      >
        {page ? (
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
          </div>
        ) : (
          <Spinner label="Loading preview" />
        )}
      </PreviewStage>
    </div>
  );
}
