import { apiUrl } from "./api-base";
import { installedConnectivity, isUnreachable } from "./installed-connectivity";

/**
 * The one way the front ends talk to the server: cookies included, JSON in and out, and any
 * non-OK answer thrown as an ApiError with the status and the server's {message}.
 */

/** An answer that was not OK. `message` is the server's own text when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The parsed JSON body, or the raw text when it was not JSON. */
    readonly body: unknown,
    /** The answer's headers (e.g. Retry-After). */
    readonly headers: Headers = new Headers(),
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export { apiUrl, setApiBaseUrl } from "./api-base";

type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** An answer's body together with its headers (e.g. X-Has-More on message pages). */
export interface ApiAnswer<T> {
  data: T;
  headers: Headers;
}

/** Sends a request; a plain object body goes as JSON, FormData as multipart. */
export async function apiRequest<T>(
  method: Method,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<T> {
  return (await apiRequestWithHeaders<T>(method, path, body, headers)).data;
}

/** As apiRequest, keeping the answer's headers. */
export async function apiRequestWithHeaders<T>(
  method: Method,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<ApiAnswer<T>> {
  const init: RequestInit = {
    method,
    credentials: "include",
    headers: { Accept: "application/json", ...headers },
  };
  if (body instanceof FormData) {
    init.body = body;
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { ...init.headers, "Content-Type": "application/json" };
  }
  // Every outcome tells the connectivity model, if any, whether the server is there.
  const connectivity = installedConnectivity();
  const sentAt = connectivity?.epoch;
  let response: Response;
  try {
    response = await fetch(apiUrl(path), init);
  } catch (error) {
    if (isUnreachable(error)) connectivity?.reportUnreachable();
    throw error;
  }
  if (isUnreachable(response)) connectivity?.reportUnreachable();
  else connectivity?.reportReachable(sentAt);
  const text = await response.text();
  const parsed = parseBody(text);
  if (!response.ok)
    throw new ApiError(response.status, errorMessage(parsed, response), parsed, response.headers);
  return { data: parsed as T, headers: response.headers };
}

export const apiGet = <T>(path: string) => apiRequest<T>("GET", path);
export const apiPost = <T>(path: string, body?: unknown) => apiRequest<T>("POST", path, body);
export const apiPatch = <T>(path: string, body?: unknown) => apiRequest<T>("PATCH", path, body);
export const apiPut = <T>(path: string, body?: unknown) => apiRequest<T>("PUT", path, body);
export const apiDelete = <T>(path: string, body?: unknown) => apiRequest<T>("DELETE", path, body);

function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function errorMessage(body: unknown, response: Response): string {
  if (body && typeof body === "object" && "message" in body && typeof body.message === "string") {
    return body.message;
  }
  if (typeof body === "string" && body.trim()) return body.trim();
  return `${response.status} ${response.statusText}`.trim();
}

/** The server's message for a failed call, or `fallback` (network errors, unexpected failures). */
export function serverMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}
