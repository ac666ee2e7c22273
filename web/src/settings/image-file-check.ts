import { IMAGE_UPLOAD_MAX_BYTES } from "../../../shared/files";
import { i18n } from "../i18n/i18n";
import type { ToastOptions } from "../ui/toast";

/** Profile pictures and company logos: images only, at most 5MB (spec section 5). */
export function imageFileProblem(file: File): ToastOptions | null {
  if (!file.type.startsWith("image/")) {
    return {
      title: i18n.t("Invalid file type", { ns: "settings" }),
      description: i18n.t("Please select an image file", { ns: "settings" }),
      variant: "destructive",
    };
  }
  if (file.size > IMAGE_UPLOAD_MAX_BYTES) {
    return {
      title: i18n.t("File too large", { ns: "settings" }),
      description: i18n.t("Please select an image smaller than 5MB", { ns: "settings" }),
      variant: "destructive",
    };
  }
  return null;
}
