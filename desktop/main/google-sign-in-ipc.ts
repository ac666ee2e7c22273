import { IpcChannels } from "../common/ipc-channels";
import type { GoogleSignIn, GoogleSignInResult } from "./google-sign-in";
import { assertTrustedSender, type IpcMainLike, IpcRefusedError } from "./ipc";

export interface GoogleSignInIpcOptions {
  ipcMain: IpcMainLike;
  isAppUrl: (url: string) => boolean;
  googleSignIn: GoogleSignIn;
  /** Brings the window back in front of the browser once signed in. */
  showWindow: () => void;
  log?: (message: string) => void;
}

/**
 * The renderer's two calls for Google sign-in, neither with arguments: start (resolves with
 * the outcome when the browser is done) and cancel. Same sender check as every other handler.
 */
export function registerGoogleSignInIpc(options: GoogleSignInIpcOptions): void {
  const { ipcMain, isAppUrl, googleSignIn } = options;
  const log = options.log ?? (() => {});

  const handle = (channel: string, handler: () => unknown) => {
    ipcMain.handle(channel, (event, ...args) => {
      try {
        assertTrustedSender(event, isAppUrl);
        if (args.length !== 0)
          throw new IpcRefusedError(`IPC refused: ${channel} takes no arguments`);
      } catch (error) {
        log(error instanceof Error ? error.message : String(error));
        throw error;
      }
      return handler();
    });
  };

  handle(IpcChannels.startGoogleSignIn, async (): Promise<GoogleSignInResult> => {
    const result = await googleSignIn.start();
    if (result.outcome === "signed-in") options.showWindow();
    return result;
  });

  handle(IpcChannels.cancelGoogleSignIn, () => {
    googleSignIn.cancel();
  });
}
