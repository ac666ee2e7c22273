import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { FEEDBACK_COMMENT_MAX_LENGTH, fileKind, formatFileSize } from "../../../shared/files";
import { apiUrl, serverMessage } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { Button } from "../ui/button";
import { DownloadIcon } from "../ui/icons";
import { Spinner } from "../ui/spinner";
import { useToast } from "../ui/toast";
import { FEEDBACK_LABELS } from "./feedback";
import { EyeIcon, FileKindIcon, KIND_LABELS } from "./file-icons";
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
import UploadDialog from "./upload-dialog";
import "./files.css";

export interface FileMessageViewProps {
  message: FileMessage;
  clientId: string;
  viewerRole: "owner" | "client";
  /** The client's name, for "who decided" in the history. */
  clientName: string;
}

export function fileNameOf(message: { fileName: string | null; fileUrl: string | null }): string {
  return message.fileName ?? message.fileUrl?.split("/").at(-1) ?? "File";
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
  const [preview, setPreview] = useState<PreviewFile | null>(null);
  const [uploadingVersion, setUploadingVersion] = useState(false);
  const name = fileNameOf(message);
  const url = apiUrl(message.fileUrl ?? "");
  const kind = fileKind(name);
  const version = message.versionNumber ?? 1;
  const status = message.requiresFeedback ? (message.feedbackStatus ?? "pending") : null;
  const thumb = message.previewUrl ? apiUrl(message.previewUrl) : null;
  // An image without a usable preview (e.g. kept before the pixel limit) shows its card only.
  const [thumbFailed, setThumbFailed] = useState(false);
  const openPreview = () =>
    setPreview({
      fileName: name,
      fileUrl: message.fileUrl ?? "",
      previewUrl: message.previewUrl ?? null,
    });

  if (message.isLatestVersion === false) {
    // One file with its history: an older version is a line; the newest carries the card.
    return (
      <p className="message__file message__file--replaced">
        <FileKindIcon kind={kind} />
        <span className="message__file-name">
          {name} · version {version}, replaced by a newer version below
        </span>
        {status && (
          <span className={`feedback-badge feedback-badge--${status}`}>
            {FEEDBACK_LABELS[status]}
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
          aria-label={`Preview ${name}`}
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
            {KIND_LABELS[kind]}
            {message.fileSize != null && ` · ${formatFileSize(message.fileSize)}`}
            {version > 1 && ` · Version ${version}`}
          </span>
        </div>
        <div className="file-message__actions">
          <Button variant="ghost" size="sm" icon={<EyeIcon />} onClick={openPreview}>
            Preview
          </Button>
          <a
            className="file-message__download"
            href={url}
            download={name}
            aria-label={`Download ${name}`}
            title="Download"
          >
            <DownloadIcon />
            <span className="file-message__download-text">Download</span>
          </a>
        </div>
      </div>
      {status && (
        <div className="file-message__feedback">
          <span className={`feedback-badge feedback-badge--${status}`}>
            {FEEDBACK_LABELS[status]}
          </span>
          {status === "pending" && viewerRole === "owner" && (
            <span className="file-message__waiting">Waiting for {clientName}</span>
          )}
          {/* Which of the client's people decided (issue 26: a client can be several). */}
          {status !== "pending" && message.feedbackByName && (
            <span className="file-message__waiting">by {message.feedbackByName}</span>
          )}
          {message.feedbackComment && (
            <blockquote className="file-message__comment">
              <span className="visually-hidden">
                {message.feedbackByName ?? clientName}'s comment:{" "}
              </span>
              {message.feedbackComment}
            </blockquote>
          )}
        </div>
      )}
      {status === "pending" && viewerRole === "client" && message.senderRole === "owner" && (
        <FeedbackActions message={message} clientId={clientId} />
      )}
      {status === "needs_work" && viewerRole === "owner" && (
        <div className="file-message__next">
          <Button size="sm" onClick={() => setUploadingVersion(true)}>
            Upload new version
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
      toast({ title: "Feedback submitted successfully", variant: "success" });
      setWriting(false);
      setComment("");
    },
    onError: (error) => {
      toast({
        title: "Failed to submit feedback",
        description: serverMessage(error, "Please try again"),
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
        title: "Feedback comment required",
        description: "Please provide a comment when selecting 'Needs Work'",
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
          What needs work?
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
        <div className="file-message__buttons">
          <Button
            variant="ghost"
            size="sm"
            disabled={decide.isPending}
            onClick={() => setWriting(false)}
          >
            Cancel
          </Button>
          <Button type="submit" size="sm" loading={decide.isPending}>
            Send feedback
          </Button>
        </div>
      </form>
    );
  }
  return (
    <div className="file-message__buttons file-message__buttons--decide">
      <Button
        size="sm"
        className="file-message__approve"
        loading={decide.isPending}
        onClick={() => decide.mutate({ status: "approved", comment: "" })}
      >
        Approve
      </Button>
      <Button
        variant="secondary"
        size="sm"
        disabled={decide.isPending}
        onClick={() => setWriting(true)}
      >
        Needs Work
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
        {open ? "Hide history" : `History (${message.versionNumber ?? 1} versions)`}
      </button>
      {open && isPending && <Spinner size="sm" label="Loading history" />}
      {open && isError && <p className="file-history__error">The history couldn't be loaded.</p>}
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
  const status = entry.requiresFeedback ? (entry.feedbackStatus ?? "pending") : null;
  const decidedAt = entry.feedbackAt ?? null;
  const decider = entry.feedbackByName ?? clientName;
  return (
    <li className="file-history__entry">
      <p className="file-history__line">
        <strong>Version {entry.versionNumber ?? 1}</strong> · {fileNameOf(entry)} · sent by{" "}
        {authorLabel(entry, viewerRole)} on{" "}
        <time dateTime={entry.createdAt}>{formatFull(entry.createdAt)}</time>
      </p>
      {status && status !== "pending" && (
        <p className="file-history__line">
          <span className={`feedback-badge feedback-badge--${status}`}>
            {FEEDBACK_LABELS[status]}
          </span>{" "}
          by {decider}
          {decidedAt && (
            <>
              {" "}
              on <time dateTime={decidedAt}>{formatFull(decidedAt)}</time>
            </>
          )}
        </p>
      )}
      {status === "pending" && (
        <p className="file-history__line">
          <span className="feedback-badge feedback-badge--pending">{FEEDBACK_LABELS.pending}</span>
        </p>
      )}
      {entry.feedbackComment && (
        <blockquote className="file-message__comment">{entry.feedbackComment}</blockquote>
      )}
    </li>
  );
}
