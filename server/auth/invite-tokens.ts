import { randomBytes, randomInt } from "node:crypto";
import { openToken, sealingKey, sealToken } from "./sealed-tokens";
import { hashToken } from "./sessions";

/** An invite as it is handed out (token) and kept (hash for lookup, ciphertext to show again). */
export interface IssuedInvite {
  token: string;
  hash: string;
  encrypted: string;
}

const TOKEN_BYTES = 16; // 128 bits
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/**
 * Invite tokens: 128-bit random, looked up by their SHA-256, and also kept encrypted with
 * AES-256-GCM (./sealed-tokens: key derived from the session secret, the client's id as
 * associated data) so that the owner's list can show the live link and a short link can
 * resolve to it. A stolen table opens no conversation without the secret; a ciphertext moved
 * to another client's row does not decrypt.
 */
export class InviteTokens {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = sealingKey(secret, "invite-token-encryption");
  }

  issue(clientId: string): IssuedInvite {
    const token = randomBytes(TOKEN_BYTES).toString("base64url");
    return { token, hash: hashInviteToken(token), encrypted: this.encrypt(clientId, token) };
  }

  /** The live token of a client, or null when there is none or it cannot be read (secret changed). */
  reveal(clientId: string, encrypted: string | null): string | null {
    return encrypted ? openToken(this.key, clientId, encrypted) : null;
  }

  private encrypt(clientId: string, token: string): string {
    return sealToken(this.key, clientId, token);
  }
}

export function hashInviteToken(token: string): string {
  return hashToken(token);
}

/** Whether a string can be an invite token at all (anything else is refused without a query). */
export function isWellFormedInviteToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

export const inviteUrl = (appUrl: string, token: string) => `${appUrl}/invite/${token}`;

/** Short codes: 8 characters from an alphabet without look-alikes (0/O/o, 1/l/I/i), about 46 bits. */
const SHORT_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789";
export const SHORT_CODE_LENGTH = 8;
const SHORT_CODE_PATTERN = new RegExp(`^[${SHORT_CODE_ALPHABET}]{${SHORT_CODE_LENGTH}}$`);

export function newShortCode(): string {
  let code = "";
  for (let i = 0; i < SHORT_CODE_LENGTH; i += 1)
    code += SHORT_CODE_ALPHABET[randomInt(SHORT_CODE_ALPHABET.length)];
  return code;
}

export function isWellFormedShortCode(code: string): boolean {
  return SHORT_CODE_PATTERN.test(code);
}

export const shortInviteUrl = (appUrl: string, code: string) => `${appUrl}/client?code=${code}`;

/** Sign-in links mailed to joined clients: 256-bit random, stored as SHA-256. */
export function newSignInLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashToken(token) };
}

/** The conversation's id rides along so the page can wear its owner's branding (it opens nothing). */
export const clientSignInUrl = (appUrl: string, token: string, clientId: string) =>
  `${appUrl}/client/sign-in?token=${token}&client=${clientId}`;
