import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";

export const DEVICE_COOKIE = "device";
export const DEVICE_COOKIE_PATH = "/api/login";
export const DEVICE_COOKIE_MAX_AGE_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * Device cookies as OWASP describes them ("Slow down online guessing attacks with device
 * cookies"): a browser that has signed in to an account gets `<nonce>.<signature>`, the
 * signature an HMAC over the nonce and the account's address under a key derived from
 * SESSION_SECRET. Only that browser can present it, and only for that address: a sign-in
 * attempt with it is counted against the device, not against the account's lockout.
 */
export class DeviceCookies {
  private readonly key: Buffer;

  constructor(sessionSecret: string) {
    this.key = Buffer.from(hkdfSync("sha256", sessionSecret, "", "clientdesk device cookie", 32));
  }

  private signature(nonce: string, email: string): Buffer {
    return createHmac("sha256", this.key).update(`${nonce}:${email.toLowerCase()}`).digest();
  }

  /** A new cookie value for a browser that has just signed in as `email`. */
  issue(email: string): string {
    const nonce = randomBytes(16).toString("base64url");
    return `${nonce}.${this.signature(nonce, email).toString("base64url")}`;
  }

  /** The device's id (its nonce) when `value` was issued for `email`; null for anything else. */
  deviceFor(value: string | undefined, email: string): string | null {
    if (!value || value.length > 200) return null;
    const [nonce, signature, ...rest] = value.split(".");
    if (!nonce || !signature || rest.length > 0) return null;
    const given = Buffer.from(signature, "base64url");
    const expected = this.signature(nonce, email);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return nonce;
  }
}
