import type { ReactNode } from "react";
import type { FileKind } from "../../../shared/files";
import { i18n } from "../i18n/i18n";
import { Icon } from "../ui/icons";

/** Icons for file kinds, a little larger than the toolbar's (20 px). */
const PAGE = "M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z M14 2v6h6";

const ICONS: Record<FileKind, ReactNode> = {
  image: (
    <Icon width="20" height="20">
      <rect x="3" y="3" width="18" height="18" rx="2" />
      <circle cx="9" cy="9" r="2" />
      <path d="m21 15-3.1-3.1a2 2 0 0 0-2.8 0L6 21" />
    </Icon>
  ),
  video: (
    <Icon width="20" height="20">
      <rect x="2" y="5" width="14" height="14" rx="2" />
      <path d="m22 8-6 4 6 4z" />
    </Icon>
  ),
  audio: (
    <Icon width="20" height="20">
      <path d="M9 18V5l12-2v13" />
      <circle cx="6" cy="18" r="3" />
      <circle cx="18" cy="16" r="3" />
    </Icon>
  ),
  pdf: (
    <Icon width="20" height="20">
      <path d={PAGE} />
      <path d="M8 13h2a1.5 1.5 0 0 1 0 3H8v-5M15 16v-5h2" />
    </Icon>
  ),
  text: (
    <Icon width="20" height="20">
      <path d={PAGE} />
      <path d="M8 13h8M8 17h8M8 9h2" />
    </Icon>
  ),
  document: (
    <Icon width="20" height="20">
      <path d={PAGE} />
      <path d="M8 13h8M8 17h5" />
    </Icon>
  ),
  unknown: (
    <Icon width="20" height="20">
      <path d={PAGE} />
    </Icon>
  ),
};

const KIND_LABELS: Record<FileKind, () => string> = {
  image: () => i18n.t("Image", { ns: "conversation" }),
  video: () => i18n.t("Video", { ns: "conversation" }),
  audio: () => i18n.t("Audio", { ns: "conversation" }),
  pdf: () => i18n.t("PDF", { ns: "conversation" }),
  text: () => i18n.t("Text", { ns: "conversation" }),
  document: () => i18n.t("Document", { ns: "conversation" }),
  unknown: () => i18n.t("File", { ns: "conversation" }),
};

/** "Image", "PDF", "Document": a file's kind in the reader's language. */
export const kindLabel = (kind: FileKind) => KIND_LABELS[kind]();

export function FileKindIcon({ kind }: { kind: FileKind }) {
  return <span className={`file-kind file-kind--${kind}`}>{ICONS[kind]}</span>;
}

export const EyeIcon = () => (
  <Icon width="20" height="20">
    <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" />
    <circle cx="12" cy="12" r="3" />
  </Icon>
);

export const ExternalIcon = () => (
  <Icon width="20" height="20">
    <path d="M15 3h6v6M10 14 21 3M18 13v6a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h6" />
  </Icon>
);
