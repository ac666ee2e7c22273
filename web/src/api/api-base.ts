let baseUrl = "";

/** Where the server is; "" (same origin) on the web. The desktop app points it elsewhere. */
export function setApiBaseUrl(url: string): void {
  baseUrl = url.replace(/\/$/, "");
}

export function apiUrl(path: string): string {
  return `${baseUrl}${path}`;
}
