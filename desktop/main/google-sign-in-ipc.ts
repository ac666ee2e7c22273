import { IpcChannels } from "../common/ipc-channels";
import type { GoogleSignIn, GoogleSignInResult } from "./google-sign-in";
import { handleTrusted, type TrustedIpc } from "./ipc";

export interface GoogleSignInIpcOptions extends TrustedIpc {
  googleSignIn: GoogleSignIn;
  /** Brings the window back in front of the browser once signed in. */
  showWindow: () => void;
}

/**
 * The renderer's two calls for Google sign-in, neither with arguments: start (resolves with
 * the outcome when the browser is done) and cancel. Same sender check as every other handler.
 */
export function registerGoogleSignInIpc(options: GoogleSignInIpcOptions): void {
  const { googleSignIn } = options;

  handleTrusted(
    options,
    IpcChannels.startGoogleSignIn,
    0,
    async (): Promise<GoogleSignInResult> => {
      const result = await googleSignIn.start();
      if (result.outcome === "signed-in") options.showWindow();
      return result;
    },
  );

  handleTrusted(options, IpcChannels.cancelGoogleSignIn, 0, () => {
    googleSignIn.cancel();
  });
}
