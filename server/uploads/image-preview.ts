import { buffer } from "node:stream/consumers";
import sharp from "sharp";
import { fileExtension } from "../../shared/files";
import { badRequest } from "../errors";
import type { MessageValues } from "../i18n/translator";
import { previewKeyOf, type Storage, type StoredObject } from "../storage/storage";
import { MAX_INPUT_PIXELS } from "./images";
import { msg } from "../../shared/i18n/msg";

/**
 * Server-made previews of conversation images. A browser decodes every pixel of an <img>: a
 * 400 KB PNG of 20000x20000 pixels takes gigabytes and crashes a phone's tab. So an image
 * larger than MAX_INPUT_PIXELS is refused at upload (as avatars are), and the conversation
 * shows a WebP of at most PREVIEW_MAX_SIDE pixels a side, made once at upload and stored next
 * to the original under `<storedName>.preview`; the original is only ever downloaded.
 */

/** The longest side of a preview, in pixels. */
export const PREVIEW_MAX_SIDE = 1600;
export const PREVIEW_CONTENT_TYPE = "image/webp";
export const PREVIEW_EXTENSION = "webp";

/** Stored names (by their extension, which the server chose) that get a preview. */
const PREVIEW_SOURCE_EXTENSIONS: ReadonlySet<string> = new Set([
  "jpg",
  "jpeg",
  "png",
  "webp",
  "gif",
]);

export const PREVIEW_MESSAGES = {
  // MAX_INPUT_PIXELS written out, a literal for the extractor (images.test.ts keeps them equal).
  tooManyPixels: msg(
    "Images can have at most 40 megapixels; this one is {{width}} × {{height}} pixels",
  ),
  unreadable: msg("This image could not be read: it may be damaged"),
} as const;

export const hasPreview = (storedName: string) =>
  PREVIEW_SOURCE_EXTENSIONS.has(fileExtension(storedName));

/** Why an image gets no preview: too many pixels, or not decodable (an errors catalog key). */
export class PreviewRefusal extends Error {
  constructor(
    readonly userMessage: string,
    readonly values: MessageValues = {},
  ) {
    super(userMessage);
  }
}

/**
 * A WebP of at most PREVIEW_MAX_SIDE a side, upright, first frame, no metadata. The pixel
 * count is read from the header and refused before anything is decoded; sharp's own
 * limitInputPixels backs it.
 */
export async function renderPreview(original: Buffer): Promise<Buffer> {
  let width: number | undefined;
  let height: number | undefined;
  try {
    // Only the header is read here, so sharp's default limit (which would hide the size) is off.
    ({ width, height } = await sharp(original, { limitInputPixels: false }).metadata());
  } catch {
    throw new PreviewRefusal(PREVIEW_MESSAGES.unreadable);
  }
  if (!width || !height) throw new PreviewRefusal(PREVIEW_MESSAGES.unreadable);
  if (width * height > MAX_INPUT_PIXELS)
    // Strings: the sizes read as before in every language ("8000 × 6000").
    throw new PreviewRefusal(PREVIEW_MESSAGES.tooManyPixels, {
      width: String(width),
      height: String(height),
    });
  try {
    return await sharp(original, {
      limitInputPixels: MAX_INPUT_PIXELS,
      autoOrient: true,
      animated: false,
      // A photo cut short by a camera still shows; only what cannot be decoded is refused.
      failOn: "none",
    })
      .resize(PREVIEW_MAX_SIDE, PREVIEW_MAX_SIDE, { fit: "inside", withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
  } catch {
    throw new PreviewRefusal(PREVIEW_MESSAGES.unreadable);
  }
}

async function makeAndStore(storage: Storage, storedName: string): Promise<StoredObject> {
  const original = await buffer(await storage.get(storedName));
  return storage.put(previewKeyOf(storedName), await renderPreview(original));
}

/**
 * At upload, before any row names the file: checks the image and stores its preview. A
 * refused image leaves nothing behind (original and preview removed) and answers 400.
 */
export async function storeUploadPreview(storage: Storage, storedName: string): Promise<void> {
  if (!hasPreview(storedName)) return;
  try {
    await makeAndStore(storage, storedName);
  } catch (error) {
    await Promise.allSettled([
      storage.delete(storedName),
      storage.delete(previewKeyOf(storedName)),
    ]);
    if (error instanceof PreviewRefusal) throw badRequest(error.userMessage, error.values);
    throw error;
  }
}

/** Previews being made by this process, so that concurrent first requests make one. */
const making = new Map<string, Promise<StoredObject>>();

/**
 * The stored preview of `storedName`, made and stored on first request when missing (files
 * uploaded before previews existed) and reused from then on. Rejects with PreviewRefusal for
 * an image that gets none (over the pixel limit, or damaged).
 */
export async function ensurePreview(storage: Storage, storedName: string): Promise<StoredObject> {
  const existing = await storage.stat(previewKeyOf(storedName));
  if (existing) return existing;
  let pending = making.get(storedName);
  if (!pending) {
    pending = makeAndStore(storage, storedName).finally(() => making.delete(storedName));
    making.set(storedName, pending);
  }
  return pending;
}
