import { useQuery, useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { fileKind } from "../../../shared/files";
import { apiUrl } from "../api/client";
import { buttonClassName } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { DownloadIcon } from "../ui/notice-icons";
import { Spinner } from "../ui/spinner";
import { ExternalIcon } from "./file-icons";
import { ImageViewer } from "./image-viewer";
import { queryKeys } from "../api/query-keys";
import { fetchAnnotations } from "./annotations-api";
import type { ReviewTarget } from "./marks-api";
import { PreviewFailed } from "./preview-failed";
import "./files.css";

/**
 * pdf.js comes with the first PDF preview, and annotorious with the first image sent for
 * approval, never before (the portal's first load stays small). A chunk that cannot be fetched
 * (offline, a new deployment) shows the download instead.
 */
const failedViewer = () => ({
  default: ({ url, fileName }: { url: string; fileName: string }) => (
    <PreviewFailed url={url} fileName={fileName} />
  ),
});
const PdfViewer = lazy(() => import("./pdf-viewer").catch(failedViewer));
const ReviewImageViewer = lazy(() => import("./review-image-viewer").catch(failedViewer));

export interface PreviewFile {
  fileName: string;
  /** The original: only ever downloaded for images. */
  fileUrl: string;
  /** An image's server-made preview (at most 1600 px), which is what is shown. */
  previewUrl?: string | null;
  /** A version sent for approval (image or PDF): the viewer shows its marks (issue 27). */
  review?: ReviewTarget | false | null;
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
  const { t } = useTranslation("conversation");
  const queryClient = useQueryClient();
  const { review } = file;
  // The marks are asked for with the click, while the viewer's chunk still loads.
  useEffect(() => {
    if (review)
      void queryClient.prefetchQuery({
        queryKey: queryKeys.annotations(review.clientId, review.messageId, review.version),
        queryFn: () => fetchAnnotations(review.messageId, review.version),
      });
  }, [queryClient, review]);
  const url = apiUrl(file.fileUrl);
  const kind = fileKind(file.fileName);
  // A browser decodes every pixel of an <img>: images are shown from their preview only.
  const imageUrl = kind === "image" && file.previewUrl ? apiUrl(file.previewUrl) : null;
  const download = (
    <a className={buttonClassName("secondary", "sm")} href={url} download={file.fileName}>
      <DownloadIcon />
      {t("Download")}
    </a>
  );
  return (
    <div className="file-preview">
      {imageUrl && file.review ? (
        <Suspense fallback={<Spinner label={t("Loading preview")} />}>
          <ReviewImageViewer
            src={imageUrl}
            fileName={file.fileName}
            url={url}
            review={file.review}
          />
        </Suspense>
      ) : imageUrl ? (
        <ImageViewer src={imageUrl} fileName={file.fileName} downloadUrl={url} />
      ) : kind === "pdf" ? (
        <Suspense fallback={<Spinner label={t("Loading preview")} />}>
          <PdfViewer url={url} fileName={file.fileName} review={file.review} />
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
            <p className="file-preview__none">{t("This file type cannot be previewed.")}</p>
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
            {t("Open in new tab")}
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
  const { t } = useTranslation("conversation");
  const { data, isPending, isError } = useQuery({
    queryKey: ["file-text", url],
    queryFn: () => fetchText(url),
    gcTime: 60_000,
  });
  if (isPending) return <Spinner label={t("Loading preview")} />;
  if (isError) return <p className="file-preview__none">{t("The preview couldn't be loaded.")}</p>;
  return (
    <div className="file-preview__text-wrap">
      <pre className="file-preview__text">{data.text}</pre>
      {data.cut && (
        <p className="file-preview__cut">
          {t("Showing the first 256 KB. Download the file for the rest.")}
        </p>
      )}
    </div>
  );
}
