import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { type FileKind, fileKind } from "../../../shared/files";
import { apiUrl } from "../api/client";
import { buttonClassName } from "../ui/button";
import { DownloadIcon } from "../ui/notice-icons";
import { fileNameOf } from "./file-name";
import type { FileVersion } from "./files-api";

/** One side of a comparison: a version of the file, as the comparison shows it. */
export interface ComparedVersion {
  number: number;
  fileName: string;
  /** The original (downloaded, or read by pdf.js). */
  url: string;
  /** An image's server-made preview, which is what is shown; null for anything else. */
  imageUrl: string | null;
  kind: FileKind;
}

export function comparedVersion(entry: FileVersion): ComparedVersion {
  const fileName = fileNameOf(entry);
  const kind = fileKind(fileName);
  return {
    number: entry.versionNumber ?? 1,
    fileName,
    url: apiUrl(entry.fileUrl ?? ""),
    imageUrl: kind === "image" && entry.previewUrl ? apiUrl(entry.previewUrl) : null,
    kind,
  };
}

/**
 * The two versions next to each other, the first on the left; `stackOnPhone` puts them one
 * above the other on a narrow screen (PDF pages, which would be unreadable at half a phone).
 */
export function ComparePanes({
  stackOnPhone = false,
  children,
}: {
  stackOnPhone?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={`compare-panes${stackOnPhone ? " compare-panes--stack" : ""}`}>{children}</div>
  );
}

/** One version in the panes: "Version N" over what is shown of it. */
export function ComparePane({
  version,
  children,
}: {
  version: ComparedVersion;
  children: ReactNode;
}) {
  const { t } = useTranslation("conversation");
  return (
    <figure className="compare-pane">
      <figcaption className="compare-pane__caption">
        <strong>{t("Version {{version}}", { version: version.number })}</strong>
        <span className="compare-pane__name" title={version.fileName}>
          {version.fileName}
        </span>
      </figcaption>
      <div className="compare-pane__body">{children}</div>
    </figure>
  );
}

/** An image version, fitted to its pane. */
export function ComparedImage({ version, src }: { version: ComparedVersion; src: string }) {
  const { t } = useTranslation("conversation");
  return (
    <img
      className="compare-pane__image"
      src={src}
      alt={t("{{file}}, version {{version}}", { file: version.fileName, version: version.number })}
    />
  );
}

/** A version that cannot be drawn here (a Word document, an image without a preview). */
export function NotShown({ version }: { version: ComparedVersion }) {
  const { t } = useTranslation("conversation");
  return (
    <div className="compare-pane__note">
      <p>{t("Version {{version}} can't be shown here.", { version: version.number })}</p>
      <a
        className={buttonClassName("secondary", "sm")}
        href={version.url}
        download={version.fileName}
      >
        <DownloadIcon />
        {t("Download version {{version}}", { version: version.number })}
      </a>
    </div>
  );
}

/** Where one version has fewer pages than the other. */
export function NoPage({ version, page }: { version: ComparedVersion; page: number }) {
  const { t } = useTranslation("conversation");
  return (
    <div className="compare-pane__note">
      <p>{t("Version {{version}} has no page {{page}}", { version: version.number, page })}</p>
    </div>
  );
}

/** What a version is when it is not a PDF: its image, or why it is not shown. */
export function StillVersion({ version }: { version: ComparedVersion }) {
  return version.imageUrl ? (
    <ComparedImage version={version} src={version.imageUrl} />
  ) : (
    <NotShown version={version} />
  );
}
