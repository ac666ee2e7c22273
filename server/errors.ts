import { msg } from "../shared/i18n/msg";
import type { MessageValues } from "./i18n/translator";

/**
 * An error whose message is safe to show the caller, with its HTTP status (and headers).
 * The message is English with {{placeholders}} for `values`: the answer is written in the
 * reader's language (server/middlewares/errors.ts; the texts are keys of the errors catalog).
 */
export class HttpError extends Error {
  values: MessageValues = {};
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  /** The values of the message's {{placeholders}}. */
  with(values: MessageValues): this {
    this.values = values;
    return this;
  }
}

export const badRequest = (message: string, values?: MessageValues) =>
  new HttpError(400, message).with(values ?? {});
export const unauthorized = (message: string = msg("Not signed in")) => new HttpError(401, message);
export const paymentRequired = (message: string, values?: MessageValues) =>
  new HttpError(402, message).with(values ?? {});
export const forbidden = (
  message: string = msg("You are not allowed to do that"),
  values?: MessageValues,
) => new HttpError(403, message).with(values ?? {});
export const notFound = (message: string = msg("Not found")) => new HttpError(404, message);
export const conflict = (message: string, values?: MessageValues) =>
  new HttpError(409, message).with(values ?? {});
export const gone = (message: string, values?: MessageValues) =>
  new HttpError(410, message).with(values ?? {});
export const payloadTooLarge = (
  message: string = msg("Request body is too large"),
  values?: MessageValues,
) => new HttpError(413, message).with(values ?? {});
export const unprocessable = (message: string) => new HttpError(422, message);
/** `values` come before the delay so that the extractor sees a `count` (plural forms). */
export const tooManyRequests = (
  message: string,
  values: MessageValues,
  retryAfterSeconds: number,
) => new HttpError(429, message, {}, { "Retry-After": String(retryAfterSeconds) }).with(values);
export const badGateway = (message: string) => new HttpError(502, message);
