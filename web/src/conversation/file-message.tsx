import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { FEEDBACK_COMMENT_MAX_LENGTH, fileKind } from "../../../shared/files";
import { apiUrl, serverMessage } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { Button } from "../ui/button";
import { DownloadIcon } from "../ui/notice-icons";
import { Spinner } from "../ui/spinner";
import { useToast } from "../ui/toast";
import { ApprovalRecordLink, ApprovalSummary, useAskedToDecide } from "./approval-status";
import { CompareVersionsButton } from "./compare-versions-button";
import { DueDate } from "./due-date";
import { feedbackLabel } from "./feedback";
import { fileNameOf } from "./file-name";
import { EyeIcon, FileKindIcon, kindLabel } from "./file-icons";
import { formatFileSize } from "./file-size";
import { FilePreviewDialog, type PreviewFile } from "./file-preview-dialog";
import {
  type FeedbackDecision,
  type FileMessage,
  type FileVersion,
  fetchVersions,
  submitFeedback,
} from "./files-api";
import { formatFull } from "./format-time";
import { authorLabel } from "./message-author";
import { replaceMessage } from "./messages-query";
import { OpenMarksButton, OpenMarksList } from "./open-marks";
import UploadDialog from "./upload-dialog";
import { useWarmPdfViewer } from "./warm-pdf-viewer";
import "./files.css";

export interface FileMessageViewProps {
  message: FileMessage;
  clientId: string;
  viewerRole: "owner" | "client";
  /** The client's name, for "who decided" in the history. */
  clientName: string;
}

/**
 * A shared file in the conversation: images (their server-made preview) and videos inline (at
 * most 300 px high), anything else a card; Preview and Download; the approval state and, for
 * the client, Approve and Needs Work; for the owner of a "Needs Work" file, Upload new version;
 * the version history.
 */
export default function FileMessageView({
  message,
  clientId,
  viewerRole,
  clientName,
}: FileMessageViewProps) {
  const { t } = useTranslation("conversation");
  const [preview, setPreview] = useState<PreviewFile | null>(null);
  const [uploadingVersion, setUploadingVersion] = useState(false);
  const name = fileNameOf(message);
  const url = apiUrl(message.fileUrl ?? "");
  const kind = fileKind(name);
  const version = message.versionNumber ?? 1;
  const status = message.requiresFeedback ? (message.feedbackStatus ?? "pending") : null;
  // A PDF that waits for the client's decision is about to be opened: get its viewer ready.
  useWarmPdfViewer(
    kind === "pdf" &&
      status === "pending" &&
      viewerRole === "client" &&
      message.isLatestVersion !== false,
  );
  const thumb = message.previewUrl ? apiUrl(message.previewUrl) : null;
  // An image without a usable preview (e.g. kept before the pixel limit) shows its card only.
  const [thumbFailed, setThumbFailed] = useState(false);
  const askedToDecide = useAskedToDecide(message);
  const openPreview = () =>
    setPreview({
      fileName: name,
      fileUrl: message.fileUrl ?? "",
      previewUrl: message.previewUrl ?? null,
      // Marks on a file sent for approval (issue 27): new ones while it awaits a decision.
      review: message.requiresFeedback && {
        clientId,
        messageId: message.id,
        version,
        viewerRole,
        canAdd: status !== "approved",
      },
    });

  if (message.isLatestVersion === false) {
    // One file with its history: an older version is a line; the newest carries the card.
    return (
      <p className="message__file message__file--replaced">
        <FileKindIcon kind={kind} />
        <span className="message__file-name">
          {t("{{file}} · version {{version}}, replaced by a newer version below", {
            file: name,
            version,
          })}
        </span>
        {status && (
          <span className={`feedback-badge feedback-badge--${status}`}>
            {feedbackLabel(status)}
          </span>
        )}
      </p>
    );
  }

  return (
    <div className={`file-message${status ? ` file-message--${status}` : ""}`}>
      {kind === "image" && thumb && !thumbFailed && (
        <button
          type="button"
          className="file-message__thumb"
          onClick={openPreview}
          aria-label={t("Preview {{file}}", { file: name })}
        >
          {/* The server's preview (at most 1600 px), never the original: see image-preview. */}
          <img src={thumb} alt="" loading="lazy" onError={() => setThumbFailed(true)} />
        </button>
      )}
      {kind === "video" && (
        // biome-ignore lint/a11y/useMediaCaption: shared files come without captions
        <video className="file-message__video" src={url} controls preload="metadata" />
      )}
      <div className="file-message__card">
        <FileKindIcon kind={kind} />
        <div className="file-message__text">
          <span className="file-message__name" title={name}>
            {name}
          </span>
          <span className="file-message__kind">
            {kindLabel(kind)}
            {message.fileSize != null && ` · ${formatFileSize(message.fileSize)}`}
            {version > 1 && ` · ${t("Version {{version}}", { version })}`}
          </span>
        </div>
        <div className="file-message__actions">
          <Button variant="ghost" size="sm" icon={<EyeIcon />} onClick={openPreview}>
            {t("Preview")}
          </Button>
          <a
            className="file-message__download"
            href={url}
            download={name}
            aria-label={t("Download {{file}}", { file: name })}
            title={t("Download")}
          >
            <DownloadIcon />
            <span className="file-message__download-text">{t("Download")}</span>
          </a>
        </div>
      </div>
      {status && (
        <div className="file-message__feedback">
          <span className={`feedback-badge feedback-badge--${status}`}>
            {feedbackLabel(status)}
          </span>
          {/* Everyone must approve (issue 27): each person's decision. */}
          {message.approvalRule === "everyone" && <ApprovalSummary message={message} />}
          {status === "pending" &&
            viewerRole === "owner" &&
            message.approvalRule !== "everyone" && (
              <span className="file-message__waiting">
                {t("Waiting for {{name}}", { name: clientName })}
              </span>
            )}
          {/* Which of the client's people decided (issue 26: a client can be several). */}
          {status !== "pending" &&
            message.feedbackByName &&
            message.approvalRule !== "everyone" && (
              <span className="file-message__waiting">
                {t("by {{name}}", { name: message.feedbackByName })}
              </span>
            )}
          {status === "approved" && <ApprovalRecordLink message={message} />}
          <OpenMarksButton message={message} onShow={openPreview} />
          {message.feedbackComment && message.approvalRule !== "everyone" && (
            <blockquote className="file-message__comment">
              <span className="visually-hidden">
                {t("{{name}}'s comment:", { name: message.feedbackByName ?? clientName })}{" "}
              </span>
              {message.feedbackComment}
            </blockquote>
          )}
          {/* What needs work, by place; on a new version, what to check (issue 27). */}
          {(status === "needs_work" || (status === "pending" && version > 1)) && (
            <OpenMarksList
              message={message}
              clientId={clientId}
              heading={status === "needs_work" ? t("Open marks") : t("Check these")}
            />
          )}
        </div>
      )}
      {status === "pending" && (
        <DueDate
          messageId={message.id}
          clientId={clientId}
          fileName={name}
          dueDate={message.dueDate ?? null}
          viewerRole={viewerRole}
        />
      )}
      {status === "pending" &&
        viewerRole === "client" &&
        message.senderRole === "owner" &&
        askedToDecide && <FeedbackActions message={message} clientId={clientId} />}
      {status === "needs_work" && viewerRole === "owner" && (
        <div className="file-message__next">
          <Button size="sm" onClick={() => setUploadingVersion(true)}>
            {t("Upload new version")}
          </Button>
        </div>
      )}
      {version > 1 && (
        <VersionHistory
          message={message}
          clientId={clientId}
          clientName={clientName}
          viewerRole={viewerRole}
        />
      )}
      <FilePreviewDialog file={preview} onClose={() => setPreview(null)} />
      {uploadingVersion && (
        <UploadDialog
          clientId={clientId}
          viewerRole={viewerRole}
          versionOf={message}
          onClose={() => setUploadingVersion(false)}
        />
      )}
    </div>
  );
}

/** Approve, or Needs Work with a comment (spec section 4, "File feedback"). */
function FeedbackActions({ message, clientId }: { message: FileMessage; clientId: string }) {
  const { t } = useTranslation("conversation");
  const toast = useToast();
  const queryClient = useQueryClient();
  const fieldId = useId();
  const [writing, setWriting] = useState(false);
  const [comment, setComment] = useState("");
  const decide = useMutation({
    mutationFn: (decision: { status: FeedbackDecision; comment: string }) =>
      submitFeedback(message.id, decision.status, decision.comment),
    onSuccess: (decided) => {
      // The decision shows with the notice, not after the refetch.
      replaceMessage(queryClient, clientId, decided);
      toast({ title: t("Feedback submitted successfully"), variant: "success" });
      setWriting(false);
      setComment("");
    },
    onError: (error) => {
      toast({
        title: t("Failed to submit feedback"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      });
    },
    onSettled: () => {
      // Decided here or elsewhere (409): show what the server has now.
      void queryClient.invalidateQueries({ queryKey: queryKeys.messages(clientId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.attachments(clientId) });
    },
  });

  const sendNeedsWork = () => {
    const text = comment.trim();
    if (!text) {
      toast({
        title: t("Feedback comment required"),
        description: t("Please provide a comment when selecting 'Needs Work'"),
        variant: "destructive",
      });
      return;
    }
    decide.mutate({ status: "needs_work", comment: text });
  };

  if (writing) {
    return (
      <form
        className="file-message__form"
        onSubmit={(event) => {
          event.preventDefault();
          sendNeedsWork();
        }}
      >
        <label className="file-message__form-label" htmlFor={fieldId}>
          {t("What needs work?")}
        </label>
        <textarea
          id={fieldId}
          className="file-message__form-field"
          rows={3}
          maxLength={FEEDBACK_COMMENT_MAX_LENGTH}
          value={comment}
          disabled={decide.isPending}
          onChange={(event) => setComment(event.target.value)}
          // biome-ignore lint/a11y/noAutofocus: the field was just asked for
          autoFocus
        />
        <OpenMarksList message={message} clientId={clientId} heading={t("Your open marks")} />
        <div className="file-message__buttons">
          <Button
            variant="ghost"
            size="sm"
            disabled={decide.isPending}
            onClick={() => setWriting(false)}
          >
            {t("Cancel")}
          </Button>
          <Button type="submit" size="sm" loading={decide.isPending}>
            {t("Send feedback")}
          </Button>
        </div>
      </form>
    );
  }
  const openMarks = message.openMarks ?? 0;
  return (
    <div className="file-message__buttons file-message__buttons--decide">
      {openMarks > 0 && (
        <p className="file-message__approve-hint">
          {t("Approving resolves the {{count}} open marks.", { count: openMarks })}
        </p>
      )}
      <Button
        size="sm"
        className="file-message__approve"
        loading={decide.isPending}
        onClick={() => decide.mutate({ status: "approved", comment: "" })}
      >
        {t("Approve")}
      </Button>
      <Button
        variant="secondary"
        size="sm"
        disabled={decide.isPending}
        onClick={() => setWriting(true)}
      >
        {t("Needs Work")}
      </Button>
    </div>
  );
}

/** The versions of a file, oldest first, with who decided what and when. */
function VersionHistory({
  message,
  clientId,
  clientName,
  viewerRole,
}: {
  message: FileMessage;
  clientId: string;
  clientName: string;
  viewerRole: "owner" | "client";
}) {
  const { t } = useTranslation("conversation");
  const [open, setOpen] = useState(false);
  const { data, isPending, isError } = useQuery({
    queryKey: queryKeys.versions(clientId, message.id),
    queryFn: () => fetchVersions(message.id),
    enabled: open,
  });
  return (
    <div className="file-history">
      <button
        type="button"
        className="file-history__toggle"
        aria-expanded={open}
        onClick={() => setOpen((shown) => !shown)}
      >
        {open
          ? t("Hide history")
          : t("History ({{count}} versions)", { count: message.versionNumber ?? 1 })}
      </button>
      <CompareVersionsButton message={message} clientId={clientId} />
      {open && isPending && <Spinner size="sm" label={t("Loading history")} />}
      {open && isError && (
        <p className="file-history__error">{t("The history couldn't be loaded.")}</p>
      )}
      {open && data && (
        <ol className="file-history__list">
          {data.map((entry) => (
            <HistoryEntry
              key={entry.id}
              entry={entry}
              clientName={clientName}
              viewerRole={viewerRole}
            />
          ))}
        </ol>
      )}
    </div>
  );
}

function HistoryEntry({
  entry,
  clientName,
  viewerRole,
}: {
  entry: FileVersion;
  clientName: string;
  viewerRole: "owner" | "client";
}) {
  const { t } = useTranslation("conversation");
  const status = entry.requiresFeedback ? (entry.feedbackStatus ?? "pending") : null;
  const decidedAt = entry.feedbackAt ?? null;
  const decider = entry.feedbackByName ?? clientName;
  return (
    <li className="file-history__entry">
      <p className="file-history__line">
        <Trans
          t={t}
          i18nKey="<0>Version {{version}}</0> · {{file}} · sent by {{author}} on <1>{{date}}</1>"
          values={{
            version: entry.versionNumber ?? 1,
            file: fileNameOf(entry),
            author: authorLabel(entry, viewerRole),
            date: formatFull(entry.createdAt),
          }}
          components={[<strong key="version" />, <time key="date" dateTime={entry.createdAt} />]}
        />
      </p>
      {status && status !== "pending" && (
        <p className="file-history__line">
          {decidedAt ? (
            <Trans
              t={t}
              i18nKey="<0>{{decision}}</0> by {{name}} on <1>{{date}}</1>"
              values={{
                decision: feedbackLabel(status),
                name: decider,
                date: formatFull(decidedAt),
              }}
              components={[
                <span key="decision" className={`feedback-badge feedback-badge--${status}`} />,
                <time key="date" dateTime={decidedAt} />,
              ]}
            />
          ) : (
            <Trans
              t={t}
              i18nKey="<0>{{decision}}</0> by {{name}}"
              values={{ decision: feedbackLabel(status), name: decider }}
              components={[
                <span key="decision" className={`feedback-badge feedback-badge--${status}`} />,
              ]}
            />
          )}
        </p>
      )}
      {status === "pending" && (
        <p className="file-history__line">
          <span className="feedback-badge feedback-badge--pending">{feedbackLabel("pending")}</span>
        </p>
      )}
      {entry.feedbackComment && (
        <blockquote className="file-message__comment">{entry.feedbackComment}</blockquote>
      )}
    </li>
  );
}
