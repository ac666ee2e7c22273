/** Defaults from spec section 9, free of zod so that the web bundles can import them. */
export const DEFAULT_COLORS = {
  primaryColor: "#0093ff",
  backgroundColor: "#ffffff",
  textColor: "#000000",
} as const;

/**
 * brandShades(DEFAULT_COLORS) (shared/contrast.ts), written out so that the portal's first
 * load needs no contrast code: the server sends every other scheme's shades computed
 * (shared/defaults.test.ts checks these).
 */
export const DEFAULT_SHADES = {
  primaryStrong: "#0079d1",
  primaryText: "#006ebf",
  textMuted: "#404040",
  textSubtle: "#666666",
} as const;

export const DEFAULT_NOTIFICATION_DELAY = 5;
export const MIN_NOTIFICATION_DELAY = 1;
export const MAX_NOTIFICATION_DELAY = 60;
