/**
 * An image sent for approval, with its marks. Only ever imported dynamically (when such an image
 * is previewed): annotorious (38 KB gzip) and its CSS stay out of the portal's first load.
 */
import {
  createImageAnnotator,
  type ImageAnnotation,
  type ImageAnnotator,
  UserSelectAction,
  W3CImageFormat,
  type W3CImageAnnotation,
} from "@annotorious/annotorious";
import "@annotorious/annotorious/annotorious.css";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Spinner } from "../ui/spinner";
import { MarkLayer } from "./mark-layer";
import { isPoint, type Mark, type ReviewTarget } from "./marks-api";
import { ActualSizeIcon, FitScreenIcon } from "./preview-icons";
import { PreviewFailed } from "./preview-failed";
import { PreviewStage, PreviewToolbar, ToolbarButton, ZoomControls } from "./preview-toolbar";
import { useImageZoom } from "./preview-zoom";
import { AddMarkButton, centreDraft, ReviewLayout } from "./review-layout";
import { type Draft, type MarksState, useMarks } from "./use-marks";

interface ReviewImageViewerProps {
  /** The server's preview (at most 1600 px): annotorious's pixels are its pixels. */
  src: string;
  fileName: string;
  /** The original, offered when the preview cannot be shown. */
  url: string;
  review: ReviewTarget;
}

interface Size {
  width: number;
  height: number;
}

/** A box mark as annotorious's W3C annotation: a pixel FragmentSelector on the preview. */
export function markToW3C(mark: Mark, source: string, natural: Size): W3CImageAnnotation {
  const px = (value: number, whole: number) => Math.round(value * whole * 100) / 100;
  const value = `xywh=pixel:${px(mark.x, natural.width)},${px(mark.y, natural.height)},${px(mark.width, natural.width)},${px(mark.height, natural.height)}`;
  return {
    "@context": "http://www.w3.org/ns/anno.jsonld",
    id: mark.id,
    type: "Annotation",
    body: [],
    target: {
      source,
      selector: {
        type: "FragmentSelector",
        conformsTo: "http://www.w3.org/TR/media-frags/",
        value,
      },
    },
  } as unknown as W3CImageAnnotation;
}

/** A box drawn with annotorious, back to fractions of the image (clamped to it). */
export function w3cToDraft(annotation: W3CImageAnnotation, natural: Size): Draft | null {
  const target = Array.isArray(annotation.target) ? annotation.target[0] : annotation.target;
  const selector = (target as { selector?: unknown } | undefined)?.selector;
  const value = (Array.isArray(selector) ? selector[0] : selector) as
    | { value?: string }
    | undefined;
  const match = /^xywh=(?:pixel:)?([\d.]+),([\d.]+),([\d.]+),([\d.]+)$/.exec(value?.value ?? "");
  if (!match) return null;
  const [x, y, w, h] = match.slice(1).map(Number) as [number, number, number, number];
  const fraction = (part: number, whole: number) => Math.min(1, Math.max(0, part / whole));
  const left = fraction(x, natural.width);
  const top = fraction(y, natural.height);
  return {
    page: 1,
    x: left,
    y: top,
    width: Math.min(1 - left, fraction(w, natural.width)),
    height: Math.min(1 - top, fraction(h, natural.height)),
  };
}

/** Annotorious's look for a mark: internal dashed amber, resolved faint, chosen thicker. */
function boxStyle(marks: Map<string, Mark>, selectedId: string | null) {
  return (annotation: ImageAnnotation) => {
    const mark = marks.get(annotation.id);
    const internal = mark?.visibility === "internal";
    const chosen = annotation.id === selectedId;
    return {
      stroke: internal ? ("#b54708" as const) : ("#0079d1" as const),
      strokeWidth: chosen ? 4 : 2,
      strokeOpacity: mark?.resolved ? 0.4 : 1,
      fill: internal ? ("#fedf89" as const) : ("#0093ff" as const),
      fillOpacity: chosen ? 0.25 : mark?.resolved ? 0.04 : 0.12,
    };
  };
}

export default function ReviewImageViewer({ src, fileName, url, review }: ReviewImageViewerProps) {
  const { t } = useTranslation("conversation");
  const viewportRef = useRef<HTMLElement>(null);
  const imageRef = useRef<HTMLImageElement>(null);
  const [natural, setNatural] = useState<Size | null>(null);
  const [failed, setFailed] = useState(false);
  const marks = useMarks(review) as MarksState;
  const { zoom, fitted, zoomIn, zoomOut, fitToView, actualSize, showsActualSize } = useImageZoom(
    viewportRef,
    natural,
  );
  const annotator = useAnnotator(imageRef, natural, src, marks);

  const placeInMiddle = () => {
    const stage = viewportRef.current;
    const layer = stage?.querySelector<HTMLElement>(".mark-layer");
    if (stage && layer) marks.setDraft(centreDraft(stage, layer, 1), true);
  };

  if (failed) return <PreviewFailed url={url} fileName={fileName} />;

  return (
    <div className="preview-viewer">
      <PreviewToolbar>
        <AddMarkButton state={marks} />
        <ZoomControls zoom={zoom} onZoomIn={zoomIn} onZoomOut={zoomOut}>
          <ToolbarButton
            label={fitted ? t("Show at 100%") : t("Fit to screen")}
            icon={fitted ? <ActualSizeIcon /> : <FitScreenIcon />}
            pressed={showsActualSize}
            onClick={() => (fitted ? actualSize() : fitToView())}
          />
        </ZoomControls>
      </PreviewToolbar>
      <ReviewLayout
        state={marks}
        onShow={(mark) => marks.select(mark.id)}
        placeInMiddle={placeInMiddle}
      >
        <PreviewStage ref={viewportRef} label={fileName}>
          {!natural && <Spinner label={t("Loading preview")} />}
          <div className="review-image" data-ready={annotator ? "true" : undefined}>
            <img
              ref={imageRef}
              className="preview-stage__image review-image__image"
              src={src}
              alt={fileName}
              hidden={!natural}
              style={natural ? { width: Math.round(natural.width * zoom) } : undefined}
              onLoad={(event) => {
                const image = event.currentTarget;
                setNatural({ width: image.naturalWidth, height: image.naturalHeight });
              }}
              onError={() => setFailed(true)}
            />
            {natural && <MarkLayer state={marks} page={1} ownsDrawing={false} />}
          </div>
        </PreviewStage>
      </ReviewLayout>
    </div>
  );
}

/**
 * Annotorious over the image once it has loaded: it shows the box marks and, in "Add mark" mode,
 * draws a new box (a drag); a click in that mode places a point (annotorious has no point tool).
 */
function useAnnotator(
  imageRef: React.RefObject<HTMLImageElement | null>,
  natural: Size | null,
  source: string,
  marks: MarksState,
): ImageAnnotator<ImageAnnotation, W3CImageAnnotation> | null {
  const [annotator, setAnnotator] = useState<ImageAnnotator<
    ImageAnnotation,
    W3CImageAnnotation
  > | null>(null);
  // The latest state for annotorious's listeners, which are registered once.
  const latest = useRef(marks);
  latest.current = marks;

  useEffect(() => {
    const image = imageRef.current;
    if (!image || !natural) return;
    const made = createImageAnnotator<ImageAnnotation, W3CImageAnnotation>(image, {
      adapter: W3CImageFormat(source),
      drawingEnabled: false,
      drawingMode: "drag",
      userSelectAction: UserSelectAction.SELECT,
    });
    made.on("createAnnotation", (annotation) => {
      made.removeAnnotation(annotation.id);
      const draft = w3cToDraft(annotation, natural);
      if (draft) latest.current.setDraft(draft);
    });
    // A click on a box selects it (annotorious 3.8 emits no clickAnnotation): its thread opens.
    made.on("selectionChanged", (selected) => {
      const [first] = selected;
      if (first) latest.current.select(first.id);
    });
    // A click (not a drag) in "Add mark" mode is a point.
    let pressedAt: { x: number; y: number } | null = null;
    const onDown = (event: PointerEvent) => {
      pressedAt = { x: event.clientX, y: event.clientY };
    };
    const onClick = (event: MouseEvent) => {
      const state = latest.current;
      if (!state.adding || !pressedAt) return;
      const moved = Math.hypot(event.clientX - pressedAt.x, event.clientY - pressedAt.y);
      if (moved > 6 || (event.target as Element).closest(".mark__number")) return;
      const box = image.getBoundingClientRect();
      const at = (value: number) => Math.min(1, Math.max(0, value));
      state.setDraft({
        page: 1,
        x: at((event.clientX - box.left) / box.width),
        y: at((event.clientY - box.top) / box.height),
        width: 0,
        height: 0,
      });
    };
    made.element.addEventListener("pointerdown", onDown);
    made.element.addEventListener("click", onClick);
    setAnnotator(made);
    return () => {
      made.element.removeEventListener("pointerdown", onDown);
      made.element.removeEventListener("click", onClick);
      made.destroy();
      setAnnotator(null);
    };
  }, [imageRef, natural, source]);

  // The box marks, and their look; points are the mark layer's pins.
  const { marks: list, selectedId, adding } = marks;
  useEffect(() => {
    if (!annotator || !natural) return;
    const boxes = (list ?? []).filter((mark) => !isPoint(mark));
    annotator.setStyle(boxStyle(new Map(boxes.map((mark) => [mark.id, mark])), selectedId));
    annotator.setAnnotations(boxes.map((mark) => markToW3C(mark, source, natural)));
  }, [annotator, list, selectedId, natural, source]);

  useEffect(() => {
    annotator?.setDrawingEnabled(adding);
  }, [annotator, adding]);

  return annotator;
}
