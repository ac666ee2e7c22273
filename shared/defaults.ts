/** Defaults from spec section 9, free of zod so that the web bundles can import them. */
export const DEFAULT_COLORS = {
  primaryColor: "#0093ff",
  backgroundColor: "#ffffff",
  textColor: "#000000",
} as const;

export const DEFAULT_NOTIFICATION_DELAY = 5;
export const MIN_NOTIFICATION_DELAY = 1;
export const MAX_NOTIFICATION_DELAY = 60;
