/**
 * Where to go after signing in or up (`?next=`, e.g. a team invite's join page): a path of
 * this site only. Anything else (another origin, `//host`, `/\host`, a scheme, control
 * characters) is refused, so a crafted link cannot send a fresh session elsewhere.
 */
export function safeNextPath(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 2000) return null;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return null;
  return value;
}

/** `path` with `next` carried along (when there is one). */
export function withNextPath(path: string, next: string | null): string {
  if (!next) return path;
  return `${path}${path.includes("?") ? "&" : "?"}next=${encodeURIComponent(next)}`;
}
