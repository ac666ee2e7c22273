import { i18n } from "../i18n/i18n";

/** A file message's name as shown: its own, else the stored name's last part. */
export function fileNameOf(message: { fileName: string | null; fileUrl: string | null }): string {
  return (
    message.fileName ?? message.fileUrl?.split("/").at(-1) ?? i18n.t("File", { ns: "conversation" })
  );
}
