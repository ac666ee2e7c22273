import { useId } from "react";
import { useTranslation } from "react-i18next";
import { formatFileSize } from "../../../shared/files";
import { numberFormat } from "../i18n/formats";
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
  const { t } = useTranslation("common");
  const labelId = useId();
  const sizes = { sent: formatFileSize(sent), total: formatFileSize(total) };
  const percent = total > 0 ? Math.min(100, Math.floor((sent / total) * 100)) : 0;
  const finishing = total > 0 && sent >= total;
  // "42%" in English, "42 %" in German and French.
  const shownPercent = numberFormat({ style: "percent" }).format(percent / 100);
  return (
    <div className="upload-progress">
      <div className="upload-progress__row">
        <span id={labelId} className="upload-progress__label" role="status">
          {finishing ? t("Finishing...") : t("Uploading {{fileName}}", { fileName })}
        </span>
        <span className="upload-progress__percent" aria-hidden="true">
          {shownPercent}
        </span>
      </div>
      <div
        className="upload-progress__track"
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={t("{{percent}}, {{sent}} of {{total}}", {
          percent: shownPercent,
          ...sizes,
        })}
      >
        <div className="upload-progress__bar" style={{ width: `${percent}%` }} />
      </div>
      <div className="upload-progress__row">
        <span className="upload-progress__bytes">{t("{{sent}} of {{total}}", sizes)}</span>
        <Button variant="secondary" size="sm" disabled={finishing} onClick={onCancel}>
          {t("Cancel")}
        </Button>
      </div>
    </div>
  );
}
