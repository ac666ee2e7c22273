import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Tokens kept encrypted so that they can be shown or used again (invite links, reply
 * addresses): AES-256-GCM under a key derived from the session secret with HKDF (one label
 * per use), with associated data binding the ciphertext to its row. Stored as
 * `v1:<base64url(iv | tag | ciphertext)>`. A stolen table yields no token without the secret;
 * a ciphertext moved to another row does not open.
 */

const FORMAT = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The 256-bit key for one use of sealed tokens (`label` names the use; never change it). */
export function sealingKey(secret: string, label: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "clientdesk", label, 32));
}

/** `token` encrypted under `key`, bound to `aad`, in the stored format. */
export function sealToken(key: Buffer, aad: string, token: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(aad));
  const ciphertext = Buffer.concat([cipher.update(token, "utf8"), cipher.final()]);
  return `${FORMAT}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64url")}`;
}

/** The token `sealed` holds, or null when it is malformed or does not open (other key or aad). */
export function openToken(key: Buffer, aad: string, sealed: string): string | null {
  const [format, payload] = sealed.split(":");
  if (format !== FORMAT || !payload) return null;
  const bytes = Buffer.from(payload, "base64url");
  if (bytes.length <= IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
      decipher.final(),
    ]).toString("utf8");
  } catch {
    return null;
  }
}
