/**
 * Electron's `net` for tests, over Node's http/https: electron-updater's HttpExecutor drives
 * both the same way (response, error and socket events, end, abort). Electron reports a
 * redirect as an event; Node answers with the 3xx response, which the executor also follows.
 */
import http from "node:http";
import https from "node:https";

export interface NetRequestOptions extends https.RequestOptions {
  /** Electron's: the session to use and how to treat redirects; Node has no use for them. */
  session?: unknown;
  redirect?: string;
}

export function createFakeNet() {
  const requests: string[] = [];
  return {
    /** Every URL requested, in order. */
    requests,
    request({ session: _session, redirect: _redirect, ...options }: NetRequestOptions) {
      const port = options.port ? `:${options.port}` : "";
      requests.push(`${options.protocol}//${options.hostname}${port}${options.path ?? "/"}`);
      return (options.protocol === "https:" ? https : http).request(options);
    },
  };
}
