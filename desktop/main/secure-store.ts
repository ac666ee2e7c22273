import { randomBytes } from "node:crypto";
import * as nodeFs from "node:fs/promises";
import path from "node:path";

/**
 * One secret (the session) kept on disk only as safeStorage ciphertext, in a file of mode
 * 0600 (Mattermost's `secureStorage.ts`). safeStorage encrypts with a key that the OS
 * keychain holds: macOS Keychain, Windows DPAPI, libsecret or KWallet on Linux. keytar is
 * not used: it is archived (no release since 2022) and breaks with newer Electron.
 *
 * On Linux without a keyring, Chromium falls back to the "basic_text" backend, whose key is
 * a constant in the binary: that ciphertext is plain text in disguise. Then this store
 * refuses to write, and the session lives only in memory (sign in again after a restart).
 */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only; see Electron's safeStorage. */
  getSelectedStorageBackend?(): string;
}

/** The file operations used (node:fs/promises by default; tests may pass their own). */
export interface SecureStoreFs {
  readFile(file: string): Promise<Buffer>;
  writeFile(file: string, data: Buffer, options: { mode: number; flag: string }): Promise<void>;
  chmod(file: string, mode: number): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  rm(file: string, options: { force: boolean }): Promise<void>;
  mkdir(dir: string, options: { recursive: true; mode: number }): Promise<unknown>;
}

export type RefusalReason = "encryption-unavailable" | "plain-text-backend";

export type SaveResult = { stored: true } | { stored: false; reason: RefusalReason };

export interface SecureStore {
  /** Why secrets cannot be stored right now, or null when they can. */
  refusalReason(): RefusalReason | null;
  save(secret: string): Promise<SaveResult>;
  /** The stored secret, or null (none, unreadable, or encryption unavailable). */
  load(): Promise<string | null>;
  clear(): Promise<void>;
}

export interface SecureStoreOptions {
  safeStorage: SafeStorageLike;
  /** e.g. `${app.getPath("userData")}/session.bin` */
  filePath: string;
  platform: NodeJS.Platform;
  fs?: SecureStoreFs;
}

export const SECRET_FILE_MODE = 0o600;

export function createSecureStore(options: SecureStoreOptions): SecureStore {
  const { safeStorage, filePath, platform } = options;
  const fs: SecureStoreFs = options.fs ?? nodeFs;

  const refusalReason = (): RefusalReason | null => {
    if (!safeStorage.isEncryptionAvailable()) return "encryption-unavailable";
    if (platform === "linux" && safeStorage.getSelectedStorageBackend?.() === "basic_text") {
      return "plain-text-backend";
    }
    return null;
  };

  return {
    refusalReason,

    async save(secret) {
      const reason = refusalReason();
      if (reason) return { stored: false, reason };
      const encrypted = safeStorage.encryptString(secret);
      await fs.mkdir(path.dirname(filePath), { recursive: true, mode: 0o700 });
      // Written whole to a new 0600 file, then renamed over the old one: never a partly
      // written secret, never a moment with wider permissions.
      const temporary = `${filePath}.${randomBytes(6).toString("hex")}.tmp`;
      try {
        await fs.writeFile(temporary, encrypted, { mode: SECRET_FILE_MODE, flag: "wx" });
        await fs.chmod(temporary, SECRET_FILE_MODE);
        await fs.rename(temporary, filePath);
      } catch (error) {
        await fs.rm(temporary, { force: true }).catch(() => {});
        throw error;
      }
      return { stored: true };
    },

    async load() {
      if (refusalReason()) return null;
      let encrypted: Buffer;
      try {
        encrypted = await fs.readFile(filePath);
      } catch {
        return null;
      }
      try {
        return safeStorage.decryptString(encrypted);
      } catch {
        // Another machine's or user's key, or a damaged file: useless, so drop it.
        await fs.rm(filePath, { force: true }).catch(() => {});
        return null;
      }
    },

    async clear() {
      await fs.rm(filePath, { force: true });
    },
  };
}
