import { buffer } from "node:stream/consumers";
import { fileTypeFromBuffer } from "file-type";
import sharp, { type Sharp } from "sharp";
import { IMAGE_UPLOAD_MAX_BYTES } from "../../shared/files";
import type { AppContext } from "../context";
import { badRequest, HttpError } from "../errors";
import { cleanFileName, receiveSingleFile } from "./multipart";
import { msg } from "../../shared/i18n/msg";

/** Formats accepted as profile pictures and logos, recognised by their magic numbers. */
export const ACCEPTED_IMAGE_TYPES: ReadonlySet<string> = new Set([
  "image/png",
  "image/jpeg",
  "image/webp",
  "image/gif",
]);

/** Larger inputs are refused before decoding: 40 megapixels is ~160 MB of RGBA pixels. */
export const MAX_INPUT_PIXELS = 40_000_000;

export const IMAGE_MESSAGES = {
  notAnImage: msg("Please select an image file"),
  tooLarge: msg("Please select an image smaller than 5MB"),
  // MAX_INPUT_PIXELS written out, a literal for the extractor (images.test.ts keeps them equal).
  tooManyPixels: msg("Please select an image of at most 40 megapixels"),
  oneFile: msg("Please select a single image"),
} as const;

// The format sharp reports for each accepted type.
const SHARP_FORMAT: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpeg",
  "image/webp": "webp",
  "image/gif": "gif",
};

export interface UploadedImage {
  /** The uploaded bytes, at most IMAGE_UPLOAD_MAX_BYTES. */
  data: Buffer;
  /** The type found in the bytes (never the client's claim). */
  detectedType: string;
  /** The client's file name, cleaned, for display only. */
  originalName: string;
}

/**
 * Reads one image from the multipart field `field`: at most 5MB (413 while streaming),
 * PNG, JPEG, WebP or GIF by content (400 otherwise, decided on the first bytes).
 */
export async function receiveImage(ctx: AppContext, field: string): Promise<UploadedImage> {
  const { value } = await receiveSingleFile(
    ctx,
    {
      field,
      maxBytes: IMAGE_UPLOAD_MAX_BYTES,
      messages: {
        tooLarge: IMAGE_MESSAGES.tooLarge,
        missing: IMAGE_MESSAGES.notAnImage,
        tooMany: IMAGE_MESSAGES.oneFile,
      },
    },
    async (file) => {
      const type = await fileTypeFromBuffer(file.head);
      if (!type || !ACCEPTED_IMAGE_TYPES.has(type.mime))
        throw badRequest(IMAGE_MESSAGES.notAnImage);
      // Bounded: the stream errors past IMAGE_UPLOAD_MAX_BYTES.
      const data = await buffer(file.stream);
      return { data, detectedType: type.mime, originalName: cleanFileName(file.filename, "image") };
    },
  );
  return value;
}

export interface EncodedImage {
  data: Buffer;
  contentType: string;
  /** File name extension for the stored name, without the dot. */
  extension: string;
  width: number;
  height: number;
}

export type ImageVariant = "profilePicture" | "companyLogo";

interface VariantSpec {
  contentType: string;
  extension: string;
  render(image: Sharp): Sharp;
}

const VARIANTS: Record<ImageVariant, VariantSpec> = {
  // A square avatar: cover 256x256, cropped around the centre.
  profilePicture: {
    contentType: "image/webp",
    extension: "webp",
    render: (image) => image.resize(256, 256, { fit: "cover" }).webp({ quality: 85 }),
  },
  // A logo keeps its proportions and transparency, and is never enlarged.
  companyLogo: {
    contentType: "image/png",
    extension: "png",
    render: (image) =>
      image
        .resize(800, 400, { fit: "inside", withoutEnlargement: true })
        .png({ compressionLevel: 9 }),
  },
};

/**
 * Decodes the upload and encodes a fresh image of the variant's size and format: upright
 * (EXIF orientation applied), first frame only, sRGB, with no metadata (EXIF, GPS, XMP, ICC
 * and comments are dropped). Whatever else was hidden in the file does not survive.
 */
export async function reencodeImage(
  upload: UploadedImage,
  variant: ImageVariant,
): Promise<EncodedImage> {
  const spec = VARIANTS[variant];
  try {
    const image = sharp(upload.data, {
      limitInputPixels: MAX_INPUT_PIXELS,
      autoOrient: true,
      animated: false,
      failOn: "warning",
    });
    const metadata = await image.metadata();
    if (metadata.format !== SHARP_FORMAT[upload.detectedType])
      throw badRequest(IMAGE_MESSAGES.notAnImage);
    const { data, info } = await spec.render(image).toBuffer({ resolveWithObject: true });
    return {
      data,
      contentType: spec.contentType,
      extension: spec.extension,
      width: info.width,
      height: info.height,
    };
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if (error instanceof Error && /pixel limit/i.test(error.message))
      throw badRequest(IMAGE_MESSAGES.tooManyPixels);
    // Truncated, corrupt, or only dressed up as an image.
    throw badRequest(IMAGE_MESSAGES.notAnImage);
  }
}
