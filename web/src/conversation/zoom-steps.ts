import { numberFormat } from "../i18n/formats";

/**
 * The zoom levels of the file preview (1 = the file's own size), as in common viewers: from any
 * level, fitted ones included, Zoom in goes to the next step above and Zoom out to the next
 * below, so the percentages shown stay round.
 */
export const ZOOM_STEPS = [0.1, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4] as const;

export const MIN_ZOOM = ZOOM_STEPS[0];
export const MAX_ZOOM = ZOOM_STEPS[ZOOM_STEPS.length - 1] ?? 4;

/** A hair of tolerance: a fitted 0.7499 is "at" 0.75, not below it. */
const EPSILON = 0.001;

export function zoomIn(current: number): number {
  return ZOOM_STEPS.find((step) => step > current + EPSILON) ?? MAX_ZOOM;
}

export function zoomOut(current: number): number {
  return [...ZOOM_STEPS].reverse().find((step) => step < current - EPSILON) ?? MIN_ZOOM;
}

/** "67%", "67 %" (de, fr): the level in the reader's language. */
export function formatZoom(zoom: number): string {
  return numberFormat({ style: "percent" }).format(Math.round(zoom * 100) / 100);
}
