import { IMAGE_UPLOAD_MAX_BYTES } from "../../../shared/files";
import type { ToastOptions } from "../ui/toast";

/** Profile pictures and company logos: images only, at most 5MB (spec section 5). */
export function imageFileProblem(file: File): ToastOptions | null {
  if (!file.type.startsWith("image/")) {
    return {
      title: "Invalid file type",
      description: "Please select an image file",
      variant: "destructive",
    };
  }
  if (file.size > IMAGE_UPLOAD_MAX_BYTES) {
    return {
      title: "File too large",
      description: "Please select an image smaller than 5MB",
      variant: "destructive",
    };
  }
  return null;
}
