import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { fileKind } from "../../../shared/files";
import { apiUrl } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { Button } from "../ui/button";
import { FileIcon } from "../ui/icons";
import { DownloadIcon } from "../ui/notice-icons";
import { Spinner } from "../ui/spinner";
import { feedbackLabel } from "./feedback";
import { EyeIcon, FileKindIcon, kindLabel } from "./file-icons";
import { FilePreviewDialog, type PreviewFile } from "./file-preview-dialog";
import { formatFileSize } from "./file-size";
import { formatActivity, formatFull } from "./format-time";
import { fetchAttachments } from "./messages-query";
import "./conversation.css";
import "./files.css";

interface AttachmentsPanelProps {
  clientId: string;
  viewerRole: "owner" | "client";
  otherName: string;
}

/**
 * The files shared in a conversation, newest first: kind, who shared it and when, the approval
 * state, Preview and Download. Loaded lazily by both sides (not needed at first paint).
 */
export default function AttachmentsPanel({
  clientId,
  viewerRole,
  otherName,
}: AttachmentsPanelProps) {
  const { t } = useTranslation("conversation");
  const [preview, setPreview] = useState<PreviewFile | null>(null);
  const { data, isPending, isLoadingError, refetch, isRefetching } = useQuery({
    queryKey: queryKeys.attachments(clientId),
    queryFn: () => fetchAttachments(clientId),
  });

  if (isPending) {
    return (
      <div className="attachments__status">
        <Spinner label={t("Loading attachments")} />
      </div>
    );
  }
  if (isLoadingError) {
    return (
      <div className="attachments__status" role="alert">
        <p className="attachments__status-title">{t("Attachments couldn't be loaded")}</p>
        <p>{t("Shared files will be listed here. Please try again in a moment.")}</p>
        <Button variant="secondary" size="sm" loading={isRefetching} onClick={() => void refetch()}>
          {t("Try again")}
        </Button>
      </div>
    );
  }
  const files = Array.isArray(data) ? data : [];
  if (files.length === 0) {
    return (
      <div className="attachments__status">
        <span className="conversation__empty-icon">
          <FileIcon />
        </span>
        <p className="attachments__status-title">{t("No files yet")}</p>
        <p>{t("Files shared in the conversation appear here.")}</p>
      </div>
    );
  }
  const newestFirst = [...files].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  return (
    <>
      <ul className="attachments" aria-label={t("Shared files")}>
        {newestFirst.map((file) => {
          const status = file.requiresFeedback ? (file.feedbackStatus ?? "pending") : null;
          const kind = fileKind(file.fileName);
          const url = apiUrl(file.fileUrl);
          return (
            <li key={file.id} className="attachments__item">
              <FileKindIcon kind={kind} />
              <div className="attachments__text">
                <p className="attachments__name" title={file.fileName}>
                  {file.fileName}
                </p>
                <p className="attachments__meta">
                  {kindLabel(kind)}
                  {file.fileSize != null && ` · ${formatFileSize(file.fileSize)}`}
                  {(file.versionNumber ?? 1) > 1 &&
                    ` · ${t("Version {{version}}", { version: file.versionNumber })}`}{" "}
                  · {file.senderRole === viewerRole ? t("You") : otherName} ·{" "}
                  <time dateTime={file.createdAt} title={formatFull(file.createdAt)}>
                    {formatActivity(file.createdAt)}
                  </time>
                </p>
                {status && (
                  <span className={`feedback-badge feedback-badge--${status}`}>
                    {feedbackLabel(status)}
                  </span>
                )}
              </div>
              <div className="attachments__actions">
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={t("Preview {{file}}", { file: file.fileName })}
                  title={t("Preview")}
                  onClick={() =>
                    setPreview({
                      fileName: file.fileName,
                      fileUrl: file.fileUrl,
                      previewUrl: file.previewUrl ?? null,
                    })
                  }
                >
                  <EyeIcon />
                </Button>
                <a
                  className="message__file-download"
                  href={url}
                  download={file.fileName}
                  aria-label={t("Download {{file}}", { file: file.fileName })}
                  title={t("Download")}
                >
                  <DownloadIcon />
                </a>
              </div>
            </li>
          );
        })}
      </ul>
      <FilePreviewDialog file={preview} onClose={() => setPreview(null)} />
    </>
  );
}
