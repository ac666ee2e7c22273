import { type KeyboardEvent, type PointerEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { numberFormat } from "../i18n/formats";
import { Spinner } from "../ui/spinner";
import type { ComparedVersion } from "./compare-panes";
import { PreviewFailed } from "./preview-failed";
import { useViewportSize } from "./preview-zoom";

/** Arrow keys move the divider this many percent; Page Up and Page Down ten times as far. */
const STEP = 5;

/** The divider's new place (percent from the left) after `key`, or null for another key. */
export function dividerAfterKey(key: string, at: number): number | null {
  const moves: Record<string, number> = {
    ArrowLeft: at - STEP,
    ArrowDown: at - STEP,
    ArrowRight: at + STEP,
    ArrowUp: at + STEP,
    PageDown: at - 10 * STEP,
    PageUp: at + 10 * STEP,
    Home: 0,
    End: 100,
  };
  const next = moves[key];
  return next === undefined ? null : Math.min(100, Math.max(0, next));
}

interface CompareSwipeProps {
  /** Underneath: shows left of the divider. */
  first: ComparedVersion & { imageUrl: string };
  /** On top: shows right of the divider. */
  second: ComparedVersion & { imageUrl: string };
}

/**
 * The two images in one box, the second over the first and cut at a divider: drag anywhere in
 * the box (mouse, pen or finger) or move the divider's handle with the keyboard, a slider.
 * The box has the first image's proportions and fits the room; the second is fitted inside.
 */
export function CompareSwipe({ first, second }: CompareSwipeProps) {
  const { t } = useTranslation("conversation");
  const [divider, setDivider] = useState(50);
  const [natural, setNatural] = useState<{ width: number; height: number } | null>(null);
  const [failed, setFailed] = useState<ComparedVersion | null>(null);
  const roomRef = useRef<HTMLDivElement>(null);
  const handleRef = useRef<HTMLDivElement>(null);
  const room = useViewportSize(roomRef);
  const scale =
    natural && room ? Math.min(1, room.width / natural.width, room.height / natural.height) : null;

  const dragTo = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    if (box.width === 0) return;
    setDivider(Math.min(100, Math.max(0, ((event.clientX - box.left) / box.width) * 100)));
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const next = dividerAfterKey(event.key, divider);
    if (next === null) return;
    event.preventDefault();
    setDivider(next);
  };

  if (failed) return <PreviewFailed url={failed.url} fileName={failed.fileName} />;
  const rounded = Math.round(divider);
  const percent = numberFormat({ style: "percent" });
  return (
    <div ref={roomRef} className="compare-swipe">
      {!scale && <Spinner label={t("Loading the images")} />}
      <div
        className="compare-swipe__box"
        hidden={!scale}
        style={
          natural && scale
            ? { width: natural.width * scale, height: natural.height * scale }
            : undefined
        }
        onPointerDown={(event) => {
          if (event.button !== 0) return;
          event.currentTarget.setPointerCapture(event.pointerId);
          dragTo(event);
          // The keyboard carries on from where the pointer left the divider.
          handleRef.current?.focus({ preventScroll: true });
        }}
        onPointerMove={(event) => {
          if (event.currentTarget.hasPointerCapture(event.pointerId)) dragTo(event);
        }}
      >
        <img
          className="compare-swipe__image"
          src={first.imageUrl}
          alt={t("{{file}}, version {{version}}", { file: first.fileName, version: first.number })}
          draggable={false}
          onLoad={(event) => {
            const image = event.currentTarget;
            setNatural({ width: image.naturalWidth, height: image.naturalHeight });
          }}
          onError={() => setFailed(first)}
        />
        <img
          className="compare-swipe__image compare-swipe__image--top"
          src={second.imageUrl}
          alt={t("{{file}}, version {{version}}", {
            file: second.fileName,
            version: second.number,
          })}
          draggable={false}
          style={{ clipPath: `inset(0 0 0 ${divider}%)` }}
          onError={() => setFailed(second)}
        />
        <span className="compare-swipe__label" aria-hidden="true">
          {t("Version {{version}}", { version: first.number })}
        </span>
        <span className="compare-swipe__label compare-swipe__label--right" aria-hidden="true">
          {t("Version {{version}}", { version: second.number })}
        </span>
        <div
          ref={handleRef}
          className="compare-swipe__divider"
          style={{ left: `${divider}%` }}
          role="slider"
          tabIndex={0}
          aria-label={t("Divider: version {{first}} on the left, version {{second}} on the right", {
            first: first.number,
            second: second.number,
          })}
          aria-orientation="horizontal"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={rounded}
          aria-valuetext={t(
            "{{firstShare}} version {{first}}, {{secondShare}} version {{second}}",
            {
              firstShare: percent.format(rounded / 100),
              first: first.number,
              secondShare: percent.format((100 - rounded) / 100),
              second: second.number,
            },
          )}
          onKeyDown={onKeyDown}
        >
          <span className="compare-swipe__grip" aria-hidden="true" />
        </div>
      </div>
    </div>
  );
}
