import { useTranslation } from "react-i18next";

export interface PendingFilesProps {
  count: number;
  viewerRole: "owner" | "client";
  otherName: string;
  /** Shows the first file that waits. */
  onShow: () => void;
}

/** "2 files wait for your approval" above the log: a click scrolls to the first one. */
export function PendingFilesBar({ count, viewerRole, otherName, onShow }: PendingFilesProps) {
  const { t } = useTranslation("conversation");
  return (
    <button type="button" className="conversation__pending" onClick={onShow}>
      {viewerRole === "client"
        ? t("{{count}} files wait for your approval", { count })
        : t("{{count}} files wait for {{name}}'s decision", { count, name: otherName })}
    </button>
  );
}
