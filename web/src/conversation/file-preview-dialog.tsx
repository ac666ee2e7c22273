import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense } from "react";
import { fileKind } from "../../../shared/files";
import { apiUrl } from "../api/client";
import { buttonClassName } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { DownloadIcon } from "../ui/icons";
import { Spinner } from "../ui/spinner";
import { ExternalIcon } from "./file-icons";
import { ImageViewer } from "./image-viewer";
import { PreviewFailed } from "./preview-failed";
import "./files.css";

/**
 * pdf.js comes with the first PDF preview, never before (the portal's first load stays small).
 * A chunk that cannot be fetched (offline, a new deployment) shows the download instead.
 */
const PdfViewer = lazy(() =>
  import("./pdf-viewer").catch(() => ({
    default: ({ url, fileName }: { url: string; fileName: string }) => (
      <PreviewFailed url={url} fileName={fileName} />
    ),
  })),
);

export interface PreviewFile {
  fileName: string;
  /** The original: only ever downloaded for images. */
  fileUrl: string;
  /** An image's server-made preview (at most 1600 px), which is what is shown. */
  previewUrl?: string | null;
}

interface FilePreviewDialogProps {
  file: PreviewFile | null;
  onClose: () => void;
}

/** Text previews show at most this much (a log file may be large). */
const TEXT_PREVIEW_BYTES = 256 * 1024;

/**
 * The file preview (spec section 2): image, video, audio, pdf and text inline; anything else
 * "This file type cannot be previewed." with a download link. PDFs and images fill the screen
 * (the dialog is as tall as the window) and zoom.
 */
export function FilePreviewDialog({ file, onClose }: FilePreviewDialogProps) {
  const kind = file ? fileKind(file.fileName) : null;
  const fills = kind === "pdf" || (kind === "image" && Boolean(file?.previewUrl));
  return (
    <Dialog
      open={file !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={file?.fileName ?? ""}
      width="wide"
      className={fills ? "file-preview-dialog file-preview-dialog--fill" : "file-preview-dialog"}
    >
      {file && <PreviewBody file={file} />}
    </Dialog>
  );
}

function PreviewBody({ file }: { file: PreviewFile }) {
  const url = apiUrl(file.fileUrl);
  const kind = fileKind(file.fileName);
  // A browser decodes every pixel of an <img>: images are shown from their preview only.
  const imageUrl = kind === "image" && file.previewUrl ? apiUrl(file.previewUrl) : null;
  const download = (
    <a className={buttonClassName("secondary", "sm")} href={url} download={file.fileName}>
      <DownloadIcon />
      Download
    </a>
  );
  return (
    <div className="file-preview">
      {imageUrl ? (
        <ImageViewer src={imageUrl} fileName={file.fileName} downloadUrl={url} />
      ) : kind === "pdf" ? (
        <Suspense fallback={<Spinner label="Loading preview" />}>
          <PdfViewer url={url} fileName={file.fileName} />
        </Suspense>
      ) : (
        <div className="file-preview__stage">
          {kind === "video" && (
            // biome-ignore lint/a11y/useMediaCaption: shared files come without captions
            <video className="file-preview__media" src={url} controls preload="metadata" />
          )}
          {kind === "audio" && (
            // biome-ignore lint/a11y/useMediaCaption: shared files come without captions
            <audio className="file-preview__audio" src={url} controls preload="metadata" />
          )}
          {kind === "text" && <TextPreview url={url} />}
          {(kind === "document" || kind === "unknown" || kind === "image") && (
            <p className="file-preview__none">This file type cannot be previewed.</p>
          )}
        </div>
      )}
      <div className="file-preview__actions">
        {imageUrl && (
          <a
            className={buttonClassName("ghost", "sm")}
            href={imageUrl}
            target="_blank"
            rel="noopener noreferrer"
          >
            <ExternalIcon />
            Open in new tab
          </a>
        )}
        {download}
      </div>
    </div>
  );
}

async function fetchText(url: string): Promise<{ text: string; cut: boolean }> {
  const response = await fetch(url, { credentials: "include" });
  if (!response.ok) throw new Error(`${response.status}`);
  const buffer = await response.arrayBuffer();
  const cut = buffer.byteLength > TEXT_PREVIEW_BYTES;
  const text = new TextDecoder().decode(cut ? buffer.slice(0, TEXT_PREVIEW_BYTES) : buffer);
  return { text, cut };
}

function TextPreview({ url }: { url: string }) {
  const { data, isPending, isError } = useQuery({
    queryKey: ["file-text", url],
    queryFn: () => fetchText(url),
    gcTime: 60_000,
  });
  if (isPending) return <Spinner label="Loading preview" />;
  if (isError) return <p className="file-preview__none">The preview couldn't be loaded.</p>;
  return (
    <div className="file-preview__text-wrap">
      <pre className="file-preview__text">{data.text}</pre>
      {data.cut && (
        <p className="file-preview__cut">
          Showing the first 256 KB. Download the file for the rest.
        </p>
      )}
    </div>
  );
}
