import { type RefObject, useCallback, useLayoutEffect, useRef, useState } from "react";
import { MAX_ZOOM, MIN_ZOOM, zoomIn, zoomOut } from "./zoom-steps";

/** The room inside the preview's scroll area (its content box), updated as it resizes. */
export function useViewportSize(ref: RefObject<HTMLElement | null>) {
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      if (!entry) return;
      const { width, height } = entry.contentRect;
      setSize((old) => (old?.width === width && old.height === height ? old : { width, height }));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}

/** Where the zoom should stay put: a point as a fraction of the content and its place on screen. */
interface Anchor {
  fractionX: number;
  fractionY: number;
  screenX: number;
  screenY: number;
}

/**
 * The preview's zoom: "fit" (recomputed as the dialog resizes) until a level is chosen. A zoom
 * keeps the point under the pointer (a click) or the middle of the view (a button) in place,
 * as image and PDF viewers do, instead of jumping to the top left corner.
 */
export function usePreviewZoom(viewportRef: RefObject<HTMLElement | null>, fitZoom: number) {
  const [chosen, setChosen] = useState<number | null>(null);
  const zoom = chosen ?? fitZoom;
  const anchor = useRef<Anchor | null>(null);

  const change = useCallback(
    (next: number | null, at?: { clientX: number; clientY: number }) => {
      const view = viewportRef.current;
      if (view && view.scrollWidth > 0 && view.scrollHeight > 0) {
        const box = view.getBoundingClientRect();
        const screenX = at ? at.clientX - box.left : view.clientWidth / 2;
        const screenY = at ? at.clientY - box.top : view.clientHeight / 2;
        anchor.current = {
          fractionX: (view.scrollLeft + screenX) / view.scrollWidth,
          fractionY: (view.scrollTop + screenY) / view.scrollHeight,
          screenX,
          screenY,
        };
      }
      setChosen(next === null ? null : Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, next)));
    },
    [viewportRef],
  );

  // Runs after the new size is laid out and before it is painted.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-anchors whenever the zoom changes
  useLayoutEffect(() => {
    const view = viewportRef.current;
    const at = anchor.current;
    anchor.current = null;
    if (!view || !at) return;
    view.scrollLeft = at.fractionX * view.scrollWidth - at.screenX;
    view.scrollTop = at.fractionY * view.scrollHeight - at.screenY;
  }, [zoom, viewportRef]);

  return {
    zoom,
    fitted: chosen === null,
    zoomIn: () => change(zoomIn(zoom)),
    zoomOut: () => change(zoomOut(zoom)),
    fitToView: (at?: { clientX: number; clientY: number }) => change(null, at),
    actualSize: (at?: { clientX: number; clientY: number }) => change(1, at),
  };
}

/** Room around an image (the padding of .preview-stage__content). */
const IMAGE_STAGE_PADDING = 16;

/**
 * An image's zoom in the preview: fitted to the stage (never enlarged) at first; 100% is its
 * own pixels. `natural`: the image's size, once loaded.
 */
export function useImageZoom(
  viewportRef: RefObject<HTMLElement | null>,
  natural: { width: number; height: number } | null,
) {
  const room = useViewportSize(viewportRef);
  const fitScreen =
    natural && room
      ? Math.min(
          1,
          (room.width - 2 * IMAGE_STAGE_PADDING) / natural.width,
          (room.height - 2 * IMAGE_STAGE_PADDING) / natural.height,
        )
      : 1;
  const zoom = usePreviewZoom(viewportRef, Math.max(0.01, fitScreen));
  return { ...zoom, showsActualSize: !zoom.fitted && zoom.zoom === 1 };
}
