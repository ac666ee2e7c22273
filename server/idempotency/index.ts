import { idempotent } from "./idempotent";
import { presentStoredMessage } from "./present-stored-message";

/** For the POSTs that store one message (text, upload, new version): see idempotent.ts. */
export const idempotentMessagePost = idempotent({ presentStored: presentStoredMessage });
