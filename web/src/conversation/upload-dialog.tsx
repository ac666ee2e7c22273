import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { CHAT_UPLOAD_EXTENSIONS, CHAT_UPLOAD_MAX_BYTES } from "../../../shared/files";
import { installedConnectivity } from "../api/installed-connectivity";
import { serverMessage } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { type UploadApprovalRule, useStreamUpload } from "../api/upload-transport";
import { xhrUpload } from "../api/xhr-upload";
import { Dialog } from "../ui/dialog";
import { useToast } from "../ui/toast";
import { UploadProgress } from "../ui/upload-progress";
import { UploadWidget } from "../ui/upload-widget";
import { ApprovalRuleChoice } from "./approval-rule-choice";
import { DueDateField } from "./due-date-field";
import { type FileMessage, type UploadTransfer, uploadFile, uploadVersion } from "./files-api";
import "./files.css";

export interface UploadDialogProps {
  clientId: string;
  viewerRole: "owner" | "client";
  onClose: () => void;
  /** A file dropped on the conversation: the dialog opens with it chosen. */
  initialFile?: File | null;
  /** Upload a new version of this file (owner, after "Needs Work") instead of a new file. */
  versionOf?: FileMessage;
  /** Called with the server's message after a successful upload. */
  onUploaded?: (message: FileMessage) => void;
}

/** The Upload File dialog: the widget, and for owners "Requires feedback". */
export default function UploadDialog({
  clientId,
  viewerRole,
  onClose,
  initialFile,
  versionOf,
  onUploaded,
}: UploadDialogProps) {
  const { t } = useTranslation("conversation");
  const toast = useToast();
  const queryClient = useQueryClient();
  const checkboxId = useId();
  const [requiresFeedback, setRequiresFeedback] = useState(false);
  const [dueDate, setDueDate] = useState("");
  // Who must approve (issue 27); a new version is asked as the previous one was, by default.
  const [approvalRule, setApprovalRule] = useState<UploadApprovalRule>(
    versionOf?.approvalRule ?? "any",
  );
  const [uploading, setUploading] = useState(false);
  // The desktop app streams the file from disk itself; the browser posts it with XMLHttpRequest.
  // Both report progress and can be cancelled.
  const streamUpload = useStreamUpload() ?? xhrUpload;
  const [progress, setProgress] = useState<{ file: File; sent: number; total: number } | null>(
    null,
  );
  const running = useRef<AbortController | null>(null);
  // An upload does not outlive the dialog (another conversation, signing out).
  useEffect(() => () => running.current?.abort(), []);

  const upload = async (file: File) => {
    // Files do not wait in the message queue (they may be large, and the owner may change
    // their mind): offline, say so at once and keep the dialog open.
    if (installedConnectivity()?.state === "offline") {
      toast({
        title: t("You're offline"),
        description: t("Upload the file when the connection is back."),
        variant: "destructive",
      });
      throw new Error("offline");
    }
    setUploading(true);
    running.current = new AbortController();
    setProgress({ file, sent: 0, total: file.size });
    const transfer: UploadTransfer = {
      upload: streamUpload,
      signal: running.current.signal,
      onProgress: (sent, total) => setProgress({ file, sent, total }),
    };
    try {
      const message = versionOf
        ? await uploadVersion(versionOf.id, file, transfer, {
            dueDate: dueDate || undefined,
            approvalRule,
          })
        : await uploadFile(
            clientId,
            file,
            viewerRole === "owner" ? requiresFeedback : undefined,
            transfer,
            { dueDate: dueDate || undefined, approvalRule },
          );
      toast({ title: t("File uploaded successfully"), description: file.name, variant: "success" });
      onUploaded?.(message);
      void queryClient.invalidateQueries({ queryKey: queryKeys.messages(clientId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.attachments(clientId) });
      if (viewerRole === "owner") {
        void queryClient.invalidateQueries({ queryKey: queryKeys.clients });
        // The plan box shows the storage used.
        void queryClient.invalidateQueries({ queryKey: queryKeys.accountTier });
      }
      onClose();
    } catch (error) {
      if (error instanceof DOMException && error.name === "AbortError") {
        // Cancelled: the widget is ready for a file again.
        toast({ title: t("Upload cancelled"), description: file.name });
        return;
      }
      toast({
        title: t("Failed to upload file"),
        description: serverMessage(error, t("Upload failed")),
        variant: "destructive",
      });
      throw error;
    } finally {
      setUploading(false);
      setProgress(null);
      running.current = null;
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !uploading) onClose();
      }}
      title={versionOf ? t("Upload new version") : t("Upload File")}
      description={
        !versionOf
          ? t("PDF, Word documents and JPG or PNG images, up to 10 MB.")
          : versionOf.fileName
            ? t(
                "Replaces {{file}} as version {{version}}; your client is asked to review it again.",
                { file: versionOf.fileName, version: (versionOf.versionNumber ?? 1) + 1 },
              )
            : t(
                "Replaces the file as version {{version}}; your client is asked to review it again.",
                { version: (versionOf.versionNumber ?? 1) + 1 },
              )
      }
    >
      <div className="upload-dialog">
        <UploadWidget
          acceptedExtensions={CHAT_UPLOAD_EXTENSIONS}
          maxBytes={CHAT_UPLOAD_MAX_BYTES}
          initialFile={initialFile}
          onUpload={upload}
          uploadLabel={versionOf ? t("Upload new version") : t("Upload")}
        >
          {viewerRole === "owner" && !versionOf && (
            <div className="upload-dialog__option">
              <input
                id={checkboxId}
                type="checkbox"
                checked={requiresFeedback}
                disabled={uploading}
                onChange={(event) => setRequiresFeedback(event.target.checked)}
              />
              <label htmlFor={checkboxId}>
                {t("Requires feedback")}
                <span className="upload-dialog__option-hint">
                  {t("Your client is asked to approve the file or say what needs work.")}
                </span>
              </label>
            </div>
          )}
          {viewerRole === "owner" && (requiresFeedback || versionOf) && (
            <>
              <DueDateField
                value={dueDate}
                onChange={setDueDate}
                disabled={uploading}
                kept={versionOf?.dueDate}
              />
              <ApprovalRuleChoice
                clientId={clientId}
                value={approvalRule}
                onChange={setApprovalRule}
                disabled={uploading}
              />
            </>
          )}
          {progress && (
            <UploadProgress
              fileName={progress.file.name}
              sent={progress.sent}
              total={progress.total}
              onCancel={() => running.current?.abort()}
            />
          )}
        </UploadWidget>
      </div>
    </Dialog>
  );
}
