import { randomBytes } from "node:crypto";
import type { Services } from "../context";
import { StoredFile, User } from "../models";
import type { EncodedImage, ImageVariant } from "../uploads/images";
import type { RecordedEvent } from "../domain-events/events";

/** A name made by the server: 128 random bits in hex and the extension of the stored type. */
export function randomStoredName(extension: string): string {
  return `${randomBytes(16).toString("hex")}.${extension}`;
}

/**
 * Stores a re-encoded image and makes it the user's profile picture or company logo. The
 * bytes are written first and the rows changed in one transaction; if that fails, the new
 * bytes are removed again. The image it replaces (file and `files` row) is deleted. An owner's
 * open client portals hear of it through BrandingChanged (they show the picture and the logo).
 */
export async function setUserImage(
  services: Pick<Services, "db" | "storage" | "logger" | "events">,
  actor: User,
  kind: ImageVariant,
  image: EncodedImage & { originalName: string },
): Promise<User> {
  const { db, storage, logger } = services;
  const storedName = randomStoredName(image.extension);
  await storage.put(storedName, image.data);

  let replaced: string | null;
  let user: User;
  let recorded: RecordedEvent | null;
  try {
    ({ replaced, user, recorded } = await db.transaction(async (trx) => {
      // Locks the row: two uploads at once each replace what the other stored.
      const current = await User.query(trx).findById(actor.id).forUpdate();
      if (!current) throw new Error(`User ${actor.id} vanished during an upload`);
      await StoredFile.query(trx).insert({
        storedName,
        originalName: image.originalName,
        contentType: image.contentType,
        sizeBytes: image.data.length,
        uploadedBy: actor.id,
        clientId: null,
      });
      const previous = current[kind];
      if (previous)
        await StoredFile.query(trx).delete().where({ storedName: previous, clientId: null });
      const updated = await User.query(trx).patchAndFetchById(actor.id, { [kind]: storedName });
      const event =
        updated.role === "owner"
          ? await services.events.record(trx, { type: "BrandingChanged", ownerId: updated.id })
          : null;
      return { replaced: previous, user: updated, recorded: event };
    }));
  } catch (error) {
    await storage
      .delete(storedName)
      .catch((cleanupError: unknown) =>
        logger.error({ err: cleanupError, storedName }, "could not remove an unused upload"),
      );
    throw error;
  }

  if (replaced) {
    // After the commit: a failure here leaves an orphan on disk, never a broken picture.
    await storage
      .delete(replaced)
      .catch((error: unknown) =>
        logger.error({ err: error, storedName: replaced }, "could not delete a replaced image"),
      );
  }
  if (recorded) services.events.dispatch(recorded);
  return user;
}
