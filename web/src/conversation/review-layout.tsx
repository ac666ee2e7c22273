import { type KeyboardEvent, type ReactNode, useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../ui/button";
import { type Mark, numberMarks } from "./marks-api";
import { MarksPanel } from "./marks-panel";
import type { Draft, MarksState } from "./use-marks";
import "./marks.css";

/** "Add mark" in the viewer's toolbar: on, a click places a point and a drag a box. */
export function AddMarkButton({ state }: { state: MarksState }) {
  const { t } = useTranslation("conversation");
  if (!state.target.canAdd) return null;
  return (
    <Button
      variant="secondary"
      size="sm"
      className="add-mark-button"
      aria-pressed={state.adding}
      onClick={() => state.setAdding(!state.adding)}
    >
      {t("Add mark")}
    </Button>
  );
}

/**
 * Where the middle of the visible part of the page (or image) is, as a point on it: what Enter
 * places in "Add mark" mode, for someone without a pointer.
 */
export function centreDraft(stage: HTMLElement, layer: HTMLElement, page: number): Draft {
  const seen = stage.getBoundingClientRect();
  const box = layer.getBoundingClientRect();
  const left = Math.max(seen.left, box.left);
  const right = Math.min(seen.right, box.right);
  const top = Math.max(seen.top, box.top);
  const bottom = Math.min(seen.bottom, box.bottom);
  const fraction = (value: number) => Math.min(1, Math.max(0, value));
  return {
    page,
    x: fraction(((left + right) / 2 - box.left) / box.width),
    y: fraction(((top + bottom) / 2 - box.top) / box.height),
    width: 0,
    height: 0,
  };
}

interface ReviewLayoutProps {
  state: MarksState;
  onShow: (mark: Mark) => void;
  /** Places a point in the middle of what is visible (Enter in "Add mark" mode). */
  placeInMiddle: () => void;
  /** The stage with the page or image. */
  children: ReactNode;
}

/**
 * The page with the marks panel beside it (under it on a phone), the "Add mark" hint, and its
 * keys: Enter on the page places a point in the middle, Escape leaves the mode (before the
 * dialog would close).
 */
export function ReviewLayout({ state, onShow, placeInMiddle, children }: ReviewLayoutProps) {
  const { t } = useTranslation("conversation");
  const numbers = useMemo(() => numberMarks(state.marks ?? []), [state.marks]);
  const { adding, setAdding } = state;

  useEffect(() => {
    if (!adding) return;
    // Radix closes the dialog from a capturing listener on the document: the window's comes first.
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.stopPropagation();
      setAdding(false);
    };
    window.addEventListener("keydown", onKey, { capture: true });
    return () => window.removeEventListener("keydown", onKey, { capture: true });
  }, [adding, setAdding]);

  const onKeyDown = (event: KeyboardEvent) => {
    const onStage = (event.target as HTMLElement).classList.contains("preview-stage");
    if (adding && onStage && event.key === "Enter" && !state.draft) {
      event.preventDefault();
      placeInMiddle();
    }
  };

  return (
    <div className="review-layout">
      {/* biome-ignore lint/a11y/noStaticElementInteractions: Enter on the focusable stage inside */}
      <div className="review-layout__page" onKeyDown={onKeyDown}>
        {adding && !state.draft && (
          <p className="review-layout__hint" role="status">
            {t("Click the file for a point, or drag for a box.")}{" "}
            <span className="review-layout__keys">
              {t("Or press Enter on the file for a point in the middle; Escape cancels.")}
            </span>
          </p>
        )}
        {children}
      </div>
      <MarksPanel state={state} numbers={numbers} onShow={onShow} />
    </div>
  );
}
