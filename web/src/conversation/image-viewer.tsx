import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Spinner } from "../ui/spinner";
import { ActualSizeIcon, FitScreenIcon } from "./preview-icons";
import { PreviewFailed } from "./preview-failed";
import { PreviewStage, PreviewToolbar, ToolbarButton, ZoomControls } from "./preview-toolbar";
import { useImageZoom } from "./preview-zoom";

interface ImageViewerProps {
  /** The server's preview of the image (at most 1600 px): its pixels are the 100%. */
  src: string;
  fileName: string;
  /** The original, offered when the preview cannot be shown. */
  downloadUrl: string;
}

/**
 * An image in the preview dialog: fitted to the dialog (never enlarged) at first; a click on it
 * or the 100% button shows it pixel for pixel (the dialog scrolls), again back to fitted.
 */
export function ImageViewer({ src, fileName, downloadUrl }: ImageViewerProps) {
  const { t } = useTranslation("conversation");
  const viewportRef = useRef<HTMLElement>(null);
  const [natural, setNatural] = useState<{ width: number; height: number } | null>(null);
  const [failed, setFailed] = useState(false);
  const { zoom, fitted, zoomIn, zoomOut, fitToView, actualSize, showsActualSize } = useImageZoom(
    viewportRef,
    natural,
  );
  const toggle = (at?: { clientX: number; clientY: number }) =>
    fitted ? actualSize(at) : fitToView(at);

  if (failed) return <PreviewFailed url={downloadUrl} fileName={fileName} />;

  return (
    <div className="preview-viewer">
      <PreviewToolbar>
        <ZoomControls zoom={zoom} onZoomIn={zoomIn} onZoomOut={zoomOut}>
          <ToolbarButton
            label={fitted ? t("Show at 100%") : t("Fit to screen")}
            icon={fitted ? <ActualSizeIcon /> : <FitScreenIcon />}
            pressed={showsActualSize}
            onClick={() => toggle()}
          />
        </ZoomControls>
      </PreviewToolbar>
      <PreviewStage ref={viewportRef} label={fileName}>
        {!natural && <Spinner label={t("Loading preview")} />}
        {/* The click is a shortcut for the toolbar's 100% / Fit to screen button. */}
        {/* biome-ignore lint/a11y/useKeyWithClickEvents: the toolbar button does the same by keyboard */}
        <img
          className={`preview-stage__image${fitted ? " preview-stage__image--fitted" : ""}`}
          src={src}
          alt={fileName}
          hidden={!natural}
          style={natural ? { width: Math.round(natural.width * zoom) } : undefined}
          onLoad={(event) => {
            const image = event.currentTarget;
            setNatural({ width: image.naturalWidth, height: image.naturalHeight });
          }}
          onError={() => setFailed(true)}
          onClick={(event) => toggle({ clientX: event.clientX, clientY: event.clientY })}
        />
      </PreviewStage>
    </div>
  );
}
