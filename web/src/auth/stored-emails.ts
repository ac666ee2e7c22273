/**
 * Emails kept in the browser between pages (spec section 3): the address waiting for
 * verification and the address a reset code was sent to. Storage can be unavailable
 * (private modes, blocked cookies); then nothing is remembered.
 */
const PENDING_VERIFICATION_KEY = "clientdesk.pendingVerificationEmail";
const RESET_EMAIL_KEY = "clientdesk.resetEmail";

function read(key: string): string {
  try {
    return window.localStorage.getItem(key) ?? "";
  } catch {
    return "";
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage unavailable: the user types the address again.
  }
}

export const pendingVerificationEmail = {
  get: () => read(PENDING_VERIFICATION_KEY),
  set: (email: string) => write(PENDING_VERIFICATION_KEY, email),
  clear: () => write(PENDING_VERIFICATION_KEY, null),
};

export const resetEmail = {
  get: () => read(RESET_EMAIL_KEY),
  set: (email: string) => write(RESET_EMAIL_KEY, email),
  clear: () => write(RESET_EMAIL_KEY, null),
};
