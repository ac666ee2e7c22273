import { useTranslation } from "react-i18next";
import { buttonClassName } from "../ui/button";
import { DownloadIcon } from "../ui/notice-icons";

/** A PDF or image the browser could not show (damaged, password-protected, gone): download it. */
export function PreviewFailed({ url, fileName }: { url: string; fileName: string }) {
  const { t } = useTranslation("conversation");
  return (
    <div className="preview-failed" role="alert">
      <p className="preview-failed__text">{t("This file could not be shown.")}</p>
      <a className={buttonClassName("secondary", "sm")} href={url} download={fileName}>
        <DownloadIcon />
        {t("Download {{file}}", { file: fileName })}
      </a>
    </div>
  );
}
