import type { ReactNode, Ref } from "react";
import { Trans, useTranslation } from "react-i18next";
import { Button } from "../ui/button";
import { ZoomInIcon, ZoomOutIcon } from "./preview-icons";
import { formatZoom, MAX_ZOOM, MIN_ZOOM } from "./zoom-steps";

/** The bar above a PDF or image preview: groups of buttons, each reachable with Tab. */
export function PreviewToolbar({ children }: { children: ReactNode }) {
  return <div className="preview-toolbar">{children}</div>;
}

/**
 * The scrollable area under the toolbar that holds the page or image. It takes the focus so
 * that a keyboard can scroll a zoomed page.
 */
export function PreviewStage({
  ref,
  label,
  children,
}: {
  ref: Ref<HTMLElement>;
  label: string;
  children: ReactNode;
}) {
  return (
    <section
      ref={ref}
      className="preview-stage"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a keyboard must be able to scroll a zoomed page
      tabIndex={0}
      aria-label={label}
    >
      <div className="preview-stage__content">{children}</div>
    </section>
  );
}

/**
 * An icon button whose name is its label (also shown as a tooltip). Unavailable is
 * aria-disabled, not disabled: pressing Next page up to the last page keeps the focus on it.
 */
export function ToolbarButton({
  label,
  icon,
  onClick,
  disabled,
  pressed,
}: {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  disabled?: boolean;
  pressed?: boolean;
}) {
  return (
    <Button
      variant="ghost"
      size="icon"
      className="preview-toolbar__button"
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      aria-disabled={disabled || undefined}
      onClick={() => {
        if (!disabled) onClick();
      }}
    >
      {icon}
    </Button>
  );
}

interface ZoomControlsProps {
  zoom: number;
  onZoomIn: () => void;
  onZoomOut: () => void;
  /** Fit width (PDF) or fit to screen / 100% (image). */
  children?: ReactNode;
}

/** Zoom out, the level in percent (announced as it changes), Zoom in, then the fit button. */
export function ZoomControls({ zoom, onZoomIn, onZoomOut, children }: ZoomControlsProps) {
  const { t } = useTranslation("conversation");
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of buttons, not a form's fieldset
    <div className="preview-toolbar__group" role="group" aria-label={t("Zoom")}>
      <ToolbarButton
        label={t("Zoom out")}
        icon={<ZoomOutIcon />}
        onClick={onZoomOut}
        disabled={zoom <= MIN_ZOOM + 0.001}
      />
      <span className="preview-toolbar__zoom" aria-live="polite">
        <Trans
          t={t}
          i18nKey="<0>Zoom </0>{{level}}"
          values={{ level: formatZoom(zoom) }}
          components={[<span key="zoom" className="visually-hidden" />]}
        />
      </span>
      <ToolbarButton
        label={t("Zoom in")}
        icon={<ZoomInIcon />}
        onClick={onZoomIn}
        disabled={zoom >= MAX_ZOOM - 0.001}
      />
      {children}
    </div>
  );
}
