/**
 * The one way a link leaves the app for the system browser (checklist 6): https only.
 * No http (clear text), file:, smb:, javascript:, custom schemes or anything that could
 * start a program.
 */
export interface ShellLike {
  openExternal(url: string): Promise<void>;
}

export function createOpenExternal(shell: ShellLike, log: (message: string) => void = () => {}) {
  return (url: string): boolean => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    if (parsed.protocol !== "https:" || parsed.username || parsed.password) {
      log(`refused to open ${parsed.protocol} link outside the app`);
      return false;
    }
    shell.openExternal(parsed.toString()).catch((error: unknown) => {
      log(`could not open link: ${error instanceof Error ? error.message : String(error)}`);
    });
    return true;
  };
}

export type OpenExternal = ReturnType<typeof createOpenExternal>;
