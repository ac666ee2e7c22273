import { useEffect, useRef } from "react";

/**
 * The steps the user is in (an open dialog, the owner's open client), innermost last. An error
 * notice belongs to the innermost step open when it shows and closes when that step ends; a
 * dialog's step can be closed (Escape while a notice is on screen is the dialog's). Kept apart
 * from the toast provider: only the notice's own view (loaded on demand) and the steps use it,
 * so none of it is in a page's first load.
 */
export interface ToastStep {
  close?: () => void;
}

const steps: ToastStep[] = [];
const listeners = new Set<(ended?: ToastStep) => void>();

export const innermostStep = (): ToastStep | undefined => steps.at(-1);

export const innermostDialog = (): ToastStep | undefined => steps.findLast((step) => step.close);

/** Calls `listener` when a step opens, or ends (with it); returns the unsubscribe. */
export function onStepsChange(listener: (ended?: ToastStep) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function open(close?: () => void): () => void {
  const step = { close };
  steps.push(step);
  for (const listener of listeners) listener();
  return () => {
    steps.splice(steps.indexOf(step), 1);
    for (const listener of listeners) listener(step);
  };
}

/** A step while `active` is truthy; a dialog passes `close`. */
export function useToastStep(active: unknown, close?: () => void): void {
  const closeRef = useRef(close);
  closeRef.current = close;
  const closes = !!close;
  useEffect(
    () => (active ? open(closes ? () => closeRef.current?.() : undefined) : undefined),
    [active, closes],
  );
}
