import { ApiError, apiRequest } from "./client";

/**
 * POSTs that must not happen twice (a message, an upload): each carries an Idempotency-Key,
 * and a failure that may not have reached the server, or that the server calls passing, is
 * retried with the same key, so the server stores it at most once (server/idempotency).
 */

/** Waits before the 2nd, 3rd and 4th attempts. */
export const RETRY_DELAYS_MS = [1_000, 2_000, 4_000] as const;

/** A fresh key. crypto.randomUUID exists only on https and localhost; a self-hosted server on plain http gets the same from getRandomValues. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Whether the same request may be sent again: no answer at all (fetch rejected: offline,
 * connection cut), a gateway or unavailable answer (502, 503, 504), or "already being
 * processed" (409 with Retry-After: the first attempt is still running on the server).
 */
export function isRetryable(error: unknown): boolean {
  return isNoAnswer(error) || isStillProcessing(error);
}

/** The server was not reached: fetch rejected, or a gateway (or the desktop bridge) answered for it. */
export function isNoAnswer(error: unknown): boolean {
  if (!(error instanceof ApiError)) return error instanceof TypeError;
  return [502, 503, 504].includes(error.status);
}

/** 409 with Retry-After: the first attempt with this key still runs on the server. */
export function isStillProcessing(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409 && error.headers.has("Retry-After");
}

const aborted = () => new DOMException("The upload was cancelled", "AbortError");

/** Waits `ms`; rejects with an AbortError as soon as `signal` fires. */
const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(aborted());
      return;
    }
    const stop = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", stop);
      resolve();
    }, ms);
    signal?.addEventListener("abort", stop, { once: true });
  });

/**
 * Runs `attempt` until it succeeds, retrying with backoff while `retryIf`; the last error is
 * thrown. `signal` stops it between attempts too (Cancel during a wait): an AbortError.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  delaysMs: readonly number[] = RETRY_DELAYS_MS,
  retryIf: (error: unknown) => boolean = isRetryable,
  signal?: AbortSignal,
): Promise<T> {
  for (let index = 0; ; index++) {
    if (signal?.aborted) throw aborted();
    try {
      return await attempt();
    } catch (error) {
      const delay = delaysMs[index];
      if (delay === undefined || !retryIf(error)) throw error;
      await wait(delay, signal);
    }
  }
}

/** POSTs `body` with the key, retrying with backoff while `retryIf`; the last error is thrown. */
export function postIdempotent<T>(
  path: string,
  body: unknown,
  key: string,
  delaysMs: readonly number[] = RETRY_DELAYS_MS,
  retryIf: (error: unknown) => boolean = isRetryable,
): Promise<T> {
  return withRetries(
    () => apiRequest<T>("POST", path, body, { "Idempotency-Key": key }),
    delaysMs,
    retryIf,
  );
}
