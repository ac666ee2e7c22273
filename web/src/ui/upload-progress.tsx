import { useId } from "react";
import { formatFileSize } from "../../../shared/files";
import { Button } from "./button";
import "./upload-progress.css";

export interface UploadProgressProps {
  sent: number;
  total: number;
  fileName: string;
  onCancel: () => void;
}

/**
 * An upload on its way: a bar with the percentage and bytes sent, and Cancel. Once every byte
 * is sent the server is storing the file, so Cancel is no longer offered ("Finishing...").
 */
export function UploadProgress({ sent, total, fileName, onCancel }: UploadProgressProps) {
  const labelId = useId();
  const percent = total > 0 ? Math.min(100, Math.floor((sent / total) * 100)) : 0;
  const finishing = total > 0 && sent >= total;
  return (
    <div className="upload-progress">
      <div className="upload-progress__row">
        <span id={labelId} className="upload-progress__label" role="status">
          {finishing ? "Finishing..." : `Uploading ${fileName}`}
        </span>
        <span className="upload-progress__percent" aria-hidden="true">
          {percent}%
        </span>
      </div>
      <div
        className="upload-progress__track"
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%, ${formatFileSize(sent)} of ${formatFileSize(total)}`}
      >
        <div className="upload-progress__bar" style={{ width: `${percent}%` }} />
      </div>
      <div className="upload-progress__row">
        <span className="upload-progress__bytes">
          {formatFileSize(sent)} of {formatFileSize(total)}
        </span>
        <Button variant="secondary" size="sm" disabled={finishing} onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
