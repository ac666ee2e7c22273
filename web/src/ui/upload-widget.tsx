import {
  type ChangeEvent,
  type DragEvent,
  type ReactNode,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";
import { useTranslation } from "react-i18next";
import { formatFileSize } from "../../../shared/files";
import { Button } from "./button";
import { checkFile, chooseFirst, uploadChosen } from "./file-choice";
import { useToast } from "./toast";
import "./upload-widget.css";

export interface UploadWidgetProps {
  /** Accepted extensions, lower case, without the dot ("pdf", "png"). */
  acceptedExtensions: readonly string[];
  maxBytes: number;
  disabled?: boolean;
  /** A file handed over from elsewhere (e.g. dropped on the conversation); checked like any other. */
  initialFile?: File | null;
  /** Runs the upload; the selection is cleared once it settles (success or failure). */
  onUpload: (file: File) => Promise<unknown>;
  uploadLabel?: string;
  /** Options shown above the upload button (e.g. "Requires feedback"). */
  children?: ReactNode;
}

/**
 * The generic upload widget (spec section 2): drag and drop or click to browse, the first file
 * only; states empty, file chosen, uploading ("Uploading...", controls disabled).
 */
export function UploadWidget({
  acceptedExtensions,
  maxBytes,
  disabled = false,
  initialFile = null,
  onUpload,
  uploadLabel,
  children,
}: UploadWidgetProps) {
  const { t } = useTranslation("common");
  const toast = useToast();
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(() =>
    initialFile && !checkFile(initialFile, acceptedExtensions, maxBytes) ? initialFile : null,
  );
  const [uploading, setUploading] = useState(false);
  const [dragging, setDragging] = useState(false);
  const locked = disabled || uploading;

  // A handed-over file that fails the checks is reported like a chosen one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the file given at mount
  useEffect(() => {
    const problem = initialFile && checkFile(initialFile, acceptedExtensions, maxBytes);
    if (problem) toast({ ...problem, variant: "destructive" });
  }, []);

  const choose = (files: FileList | null | undefined) => {
    const choice = chooseFirst(files, acceptedExtensions, maxBytes);
    if (!choice) return;
    if (choice.problem) toast({ ...choice.problem, variant: "destructive" });
    setFile(choice.file);
  };

  const onInputChange = (event: ChangeEvent<HTMLInputElement>) => {
    choose(event.target.files);
    // The same file can be chosen again after "Choose another file".
    event.target.value = "";
  };

  const onDragOver = (event: DragEvent) => {
    if (locked || !event.dataTransfer.types.includes("Files")) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    setDragging(true);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    event.stopPropagation();
    setDragging(false);
    if (!locked) choose(event.dataTransfer.files);
  };

  const upload = async () => {
    if (!file || locked) return;
    await uploadChosen(file, onUpload, (running) => {
      setUploading(running);
      if (!running) setFile(null);
    });
  };

  const accept = acceptedExtensions.map((extension) => `.${extension}`).join(",");
  return (
    <div className="upload-widget">
      <input
        ref={inputRef}
        id={inputId}
        type="file"
        className="visually-hidden"
        accept={accept}
        disabled={locked}
        onChange={onInputChange}
        tabIndex={-1}
        aria-hidden="true"
      />
      {file ? (
        <div className="upload-widget__chosen">
          <div className="upload-widget__file">
            <span className="upload-widget__name">{file.name}</span>
            <span className="upload-widget__size">{formatFileSize(file.size)}</span>
          </div>
          <Button variant="ghost" size="sm" disabled={locked} onClick={() => setFile(null)}>
            {t("Choose another file")}
          </Button>
        </div>
      ) : (
        <button
          type="button"
          className={`upload-widget__zone${dragging ? " upload-widget__zone--over" : ""}`}
          disabled={locked}
          onClick={() => inputRef.current?.click()}
          onDragOver={onDragOver}
          onDragEnter={onDragOver}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <span className="upload-widget__title">{t("Drag a file here or click to browse")}</span>
          <span className="upload-widget__hint">
            {t("{{types}} · up to {{size}}", {
              types: acceptedExtensions.map((extension) => extension.toUpperCase()).join(", "),
              size: formatFileSize(maxBytes),
            })}
          </span>
        </button>
      )}
      {children}
      <Button
        fullWidth
        disabled={!file || locked}
        loading={uploading}
        onClick={() => void upload()}
      >
        {uploading ? t("Uploading...") : (uploadLabel ?? t("Upload"))}
      </Button>
    </div>
  );
}
