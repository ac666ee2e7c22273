import { readFile as fsReadFile } from "node:fs/promises";
import path from "node:path";
import { APP_HOST, APP_SCHEME } from "../common/app-origin";

/**
 * The custom scheme the packaged renderer is served from (checklist 4: not file://).
 * `standard` gives it an origin, relative URLs and storage; `secure` makes it a secure
 * context; `supportFetchAPI` lets the page fetch its own files. `corsEnabled` stays off, so
 * no other origin can read app:// resources.
 */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
} as const;

/** Must run before the app is ready. */
export function registerAppScheme(protocol: {
  registerSchemesAsPrivileged(schemes: (typeof APP_SCHEME_PRIVILEGES)[]): void;
}): void {
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
}

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".txt": "text/plain; charset=utf-8",
  ".wasm": "application/wasm",
};

/**
 * The file under `root` that `pathname` names, or null when it would leave `root`
 * (`..` in any spelling, encoded slashes or backslashes, NUL bytes). `/` and paths that
 * name no file type (the SPA's own routes like `/pricing`) give index.html.
 */
export function resolveRendererFile(root: string, pathname: string): string | null {
  const segments: string[] = [];
  for (const raw of pathname.split("/")) {
    if (raw === "") continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (
      segment === "." ||
      segment === ".." ||
      segment.includes("/") ||
      segment.includes("\\") ||
      segment.includes("\0") ||
      /^[a-zA-Z]:/.test(segment)
    ) {
      return null;
    }
    segments.push(segment);
  }
  const last = segments.at(-1);
  if (last === undefined || path.extname(last) === "") return path.join(root, "index.html");
  const resolvedRoot = path.resolve(root);
  const file = path.resolve(resolvedRoot, ...segments);
  const relative = path.relative(resolvedRoot, file);
  if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) return null;
  return file;
}

export interface AppProtocolOptions {
  /** The built renderer (out/renderer). */
  rendererRoot: string;
  /** The Content-Security-Policy header sent with every answer. */
  csp: string;
  readFile?: (file: string) => Promise<Uint8Array>;
  /**
   * Requests for app://clientdesk/api/... (e.g. an <img> whose src is a server-relative
   * file URL) go to the server through main, as calls to the server's own origin do.
   */
  forwardToServer?: (request: Request, serverPath: string) => Promise<Response>;
}

function textResponse(status: number, text: string, csp: string): Response {
  return new Response(text, {
    status,
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Security-Policy": csp,
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** The protocol.handle handler for app://clientdesk/: files from the renderer root only. */
export function createAppProtocolHandler(options: AppProtocolOptions) {
  const readFile = options.readFile ?? ((file: string) => fsReadFile(file));
  const { csp } = options;
  return async (request: Request): Promise<Response> => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return textResponse(400, "Bad request", csp);
    }
    if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) {
      return textResponse(404, "Not found", csp);
    }
    if (url.pathname === "/api" || url.pathname.startsWith("/api/")) {
      if (!options.forwardToServer) return textResponse(404, "Not found", csp);
      return options.forwardToServer(request, `${url.pathname}${url.search}`);
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      return textResponse(405, "Method not allowed", csp);
    }
    const file = resolveRendererFile(options.rendererRoot, url.pathname);
    if (!file) return textResponse(403, "Forbidden", csp);
    let body: Uint8Array;
    try {
      body = await readFile(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "EISDIR" || code === "ENOTDIR") {
        return textResponse(404, "Not found", csp);
      }
      return textResponse(500, "Could not read the file", csp);
    }
    const type = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream";
    const headers: Record<string, string> = {
      "Content-Type": type,
      "Content-Security-Policy": csp,
      "X-Content-Type-Options": "nosniff",
      "Cross-Origin-Opener-Policy": "same-origin",
      // Local files: revalidating costs nothing and an update never meets a stale file.
      "Cache-Control": "no-cache",
    };
    return new Response(request.method === "HEAD" ? null : (body as BodyInit), {
      status: 200,
      headers,
    });
  };
}
