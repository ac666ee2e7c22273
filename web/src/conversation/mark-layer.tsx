import {
  type CSSProperties,
  type KeyboardEvent,
  type PointerEvent,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { useTranslation } from "react-i18next";
import { numberFormat } from "../i18n/formats";
import { i18n } from "../i18n/i18n";
import { isPoint, type Mark, numberMarks } from "./marks-api";
import type { Draft, MarksState } from "./use-marks";

/** Below this many pixels of movement a press is a click: a point, not a box. */
const DRAG_THRESHOLD_PX = 6;
/** One arrow key press moves a new mark this much of the page (Shift: five times as far). */
const ARROW_STEP = 0.01;

const clamp = (value: number) => Math.min(1, Math.max(0, value));

/** Where a pointer is, as fractions of the layer (the page or image). */
function fractionAt(layer: HTMLElement, event: { clientX: number; clientY: number }) {
  const box = layer.getBoundingClientRect();
  return {
    x: clamp((event.clientX - box.left) / box.width),
    y: clamp((event.clientY - box.top) / box.height),
  };
}

/** A box from two corners, as fractions; a point when they are (nearly) the same spot. */
export function draftBetween(
  page: number,
  start: { x: number; y: number },
  end: { x: number; y: number },
  size: { width: number; height: number },
): Draft {
  const movedX = Math.abs(end.x - start.x) * size.width;
  const movedY = Math.abs(end.y - start.y) * size.height;
  if (movedX < DRAG_THRESHOLD_PX && movedY < DRAG_THRESHOLD_PX)
    return { page, x: start.x, y: start.y, width: 0, height: 0 };
  const x = Math.min(start.x, end.x);
  const y = Math.min(start.y, end.y);
  return { page, x, y, width: Math.abs(end.x - start.x), height: Math.abs(end.y - start.y) };
}

const placeStyle = (mark: Draft): CSSProperties => ({
  left: `${mark.x * 100}%`,
  top: `${mark.y * 100}%`,
  ...(isPoint(mark) ? {} : { width: `${mark.width * 100}%`, height: `${mark.height * 100}%` }),
});

/** What a pin's or box's button says to a screen reader. */
export function markLabel(mark: Mark, number: number): string {
  const parts = [i18n.t("Mark {{number}}", { ns: "conversation", number })];
  if (mark.carriedFromId) parts.push(i18n.t("check this", { ns: "conversation" }));
  if (mark.visibility === "internal") parts.push(i18n.t("internal", { ns: "conversation" }));
  if (mark.resolved) parts.push(i18n.t("resolved", { ns: "conversation" }));
  return i18n.t("{{mark}}: {{comment}}", {
    ns: "conversation",
    mark: parts.join(", "),
    comment: mark.comment,
  });
}

interface MarkLayerProps {
  state: MarksState;
  page: number;
  /**
   * PDFs: this layer draws the boxes and takes the clicks and drags of "Add mark". Images:
   * annotorious draws and shows the boxes; this layer shows the numbers and the points.
   */
  ownsDrawing: boolean;
}

/**
 * Marks over a page or image, placed by fractions so they hold at every zoom: a numbered pin
 * for a point, a box with its number for a rectangle, and the new mark being placed.
 */
export function MarkLayer({ state, page, ownsDrawing }: MarkLayerProps) {
  const layerRef = useRef<HTMLDivElement>(null);
  const draftRef = useRef<HTMLButtonElement>(null);
  const [pressed, setPressed] = useState<{ x: number; y: number } | null>(null);
  const [rubber, setRubber] = useState<Draft | null>(null);
  const { marks, draft, adding, selectedId } = state;
  const numbers = useMemo(() => numberMarks(marks ?? []), [marks]);
  const onPage = (marks ?? []).filter((mark) => mark.page === page);
  const draftHere = draft?.page === page ? draft : null;

  // A mark chosen in the list is scrolled into view once its page shows.
  const selectedHere = onPage.some((mark) => mark.id === selectedId) ? selectedId : null;
  useEffect(() => {
    if (!selectedHere) return;
    layerRef.current
      ?.querySelector(`[data-mark-id="${CSS.escape(selectedHere)}"]`)
      ?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [selectedHere]);

  // Placed with Enter: the focus goes to the new mark, which the arrow keys then move.
  const focusDraft = draftHere !== null && state.draftByKeyboard;
  useEffect(() => {
    if (focusDraft) draftRef.current?.focus();
  }, [focusDraft]);

  const size = () => {
    const box = layerRef.current?.getBoundingClientRect();
    return { width: box?.width ?? 1, height: box?.height ?? 1 };
  };
  const pointer =
    ownsDrawing && adding
      ? {
          onPointerDown: (event: PointerEvent<HTMLDivElement>) => {
            if (event.button !== 0 || event.target !== event.currentTarget) return;
            event.currentTarget.setPointerCapture(event.pointerId);
            setPressed(fractionAt(event.currentTarget, event));
          },
          onPointerMove: (event: PointerEvent<HTMLDivElement>) => {
            if (!pressed) return;
            const next = draftBetween(
              page,
              pressed,
              fractionAt(event.currentTarget, event),
              size(),
            );
            setRubber(isPoint(next) ? null : next);
          },
          onPointerUp: (event: PointerEvent<HTMLDivElement>) => {
            if (!pressed) return;
            state.setDraft(
              draftBetween(page, pressed, fractionAt(event.currentTarget, event), size()),
            );
            setPressed(null);
            setRubber(null);
          },
          onPointerCancel: () => {
            setPressed(null);
            setRubber(null);
          },
        }
      : {};

  const moveDraft = (event: KeyboardEvent) => {
    if (!draftHere) return;
    const step = event.shiftKey ? ARROW_STEP * 5 : ARROW_STEP;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    state.setDraft(
      {
        ...draftHere,
        x: Math.min(1 - draftHere.width, Math.max(0, draftHere.x + move[0])),
        y: Math.min(1 - draftHere.height, Math.max(0, draftHere.y + move[1])),
      },
      true,
    );
  };

  return (
    <div
      ref={layerRef}
      className={`mark-layer${ownsDrawing && adding ? " mark-layer--adding" : ""}`}
      data-testid="mark-layer"
      {...pointer}
    >
      {onPage.map((mark) => {
        const number = numbers.get(mark.id) ?? 0;
        const classes = [
          "mark",
          isPoint(mark) ? "mark--point" : "mark--box",
          mark.resolved && "mark--resolved",
          mark.visibility === "internal" && "mark--internal",
          mark.carriedFromId && "mark--carried",
          mark.id === selectedId && "mark--selected",
          !ownsDrawing && !isPoint(mark) && "mark--outline-elsewhere",
        ]
          .filter(Boolean)
          .join(" ");
        return (
          <div key={mark.id} className={classes} style={placeStyle(mark)} data-mark-id={mark.id}>
            <button
              type="button"
              className="mark__number"
              aria-label={markLabel(mark, number)}
              aria-pressed={mark.id === selectedId}
              onClick={() => state.select(mark.id === selectedId ? null : mark.id)}
            >
              {number}
            </button>
          </div>
        );
      })}
      {rubber && <div className="mark mark--box mark--draft" style={placeStyle(rubber)} />}
      {draftHere && (
        <div
          className={`mark mark--draft ${isPoint(draftHere) ? "mark--point" : "mark--box"}`}
          style={placeStyle(draftHere)}
        >
          <DraftHandle ref={draftRef} draft={draftHere} onKeyDown={moveDraft} />
        </div>
      )}
    </div>
  );
}

/** The new mark: focusable, so that arrow keys move it before it is saved. */
function DraftHandle({
  ref,
  draft,
  onKeyDown,
}: {
  ref: React.Ref<HTMLButtonElement>;
  draft: Draft;
  onKeyDown: (event: KeyboardEvent) => void;
}) {
  const { t } = useTranslation("conversation");
  const percent = (value: number) =>
    numberFormat({ style: "percent" }).format(Math.round(value * 100) / 100);
  return (
    <button
      ref={ref}
      type="button"
      className="mark__number mark__number--draft"
      data-draft-handle
      aria-label={t("New mark at {{across}} across, {{down}} down. Arrow keys move it.", {
        across: percent(draft.x),
        down: percent(draft.y),
      })}
      onKeyDown={onKeyDown}
    >
      +
    </button>
  );
}
