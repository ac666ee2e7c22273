import type { AppContext } from "../context";
import { requestLanguage } from "./request-language";
import { type MessageValues, translateMessage } from "./translator";

/**
 * An English {message} (a key of the errors catalog, marked with msg() where it is written)
 * in the language of the request's reader.
 */
export const readable = (ctx: AppContext, message: string, values?: MessageValues) =>
  translateMessage(requestLanguage(ctx), message, values);
