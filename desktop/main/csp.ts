import type { ServerConfig } from "./server-config";

export interface CspOptions {
  server: Pick<ServerConfig, "serverUrl" | "websocketUrl">;
  /** The Vite dev server's origin, only when the app is not packaged (HMR needs it). */
  devServerOrigin?: string | null;
}

/**
 * The renderer's Content-Security-Policy. Scripts only from the app itself; network
 * connections only to the configured server and its /ws; no plugins, frames, forms or
 * <base>. Images and media may come from the server (profile pictures, shared files).
 * Radix positions popovers with style attributes, hence 'unsafe-inline' for styles only.
 */
export function contentSecurityPolicy({ server, devServerOrigin = null }: CspOptions): string {
  const self = "'self'";
  const dev = devServerOrigin ? [devServerOrigin] : [];
  const devSocket = devServerOrigin ? [devServerOrigin.replace(/^http/, "ws")] : [];
  const directives: [string, string[]][] = [
    ["default-src", ["'none'"]],
    ["script-src", [self, ...dev]],
    ["style-src", [self, "'unsafe-inline'", ...dev]],
    ["img-src", [self, "data:", "blob:", server.serverUrl]],
    ["media-src", [self, "blob:", server.serverUrl]],
    ["font-src", [self, ...dev]],
    ["connect-src", [server.serverUrl, server.websocketUrl, ...dev, ...devSocket]],
    ["manifest-src", [self]],
    ["object-src", ["'none'"]],
    ["frame-src", ["'none'"]],
    ["worker-src", ["'none'"]],
    ["base-uri", ["'none'"]],
    ["form-action", ["'none'"]],
    ["frame-ancestors", ["'none'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(" ")}`).join("; ");
}
