/**
 * The part of Electron's `net` an upload uses (ClientRequest / IncomingMessage), so main's
 * uploads go through Chromium's network stack: the system proxy and PAC, the OS certificate
 * store, and the session's cookie jar (sent, and Set-Cookie stored, as the page's requests).
 */
export interface UploadResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  on(event: "data", listener: (chunk: Buffer) => void): unknown;
  on(event: "end", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
}

export interface UploadClientRequest {
  chunkedEncoding: boolean;
  setHeader(name: string, value: string): void;
  /** The callback runs once the chunk is taken by the network layer: the upload waits on it. */
  write(chunk: Buffer, encoding?: string, callback?: (error?: Error | null) => void): unknown;
  end(): unknown;
  abort(): void;
  once(event: "response", listener: (response: UploadResponse) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
}

/** What an upload asks of net.request; optional as in Electron's ClientRequestConstructorOptions. */
export interface UploadRequestOptions<Session = unknown> {
  method?: string;
  url?: string;
  /** The app's session: its cookie jar, proxy settings and certificate checks. */
  session?: Session;
  useSessionCookies?: boolean;
  credentials?: "include" | "omit" | "same-origin";
  origin?: string;
  redirect?: "follow" | "error" | "manual";
  /**
   * Past the session's own http(s) handlers (server-bridge.ts answers the page's calls with
   * them): without it the upload would be read whole there and sent again, beyond Cancel.
   */
  bypassCustomProtocolHandlers?: boolean;
}

export interface UploadNet<Session = unknown> {
  request(options: UploadRequestOptions<Session>): UploadClientRequest;
}
