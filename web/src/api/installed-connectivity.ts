import type { Connectivity } from "./connectivity";

/**
 * The connectivity model, where the app installed one (the owner dashboard, in the browser and
 * the desktop app: api/app-connectivity.ts). The client portal installs none, which keeps its
 * first load small; there requests report nowhere and messages retry as before.
 */
let installed: Connectivity | null = null;

export function installConnectivity(connectivity: Connectivity): void {
  installed = connectivity;
}

export function installedConnectivity(): Connectivity | null {
  return installed;
}

/** Whether a fetch's outcome means the server was not reached: no answer, or a gateway's for it. */
export function isUnreachable(outcome: unknown): boolean {
  if (outcome instanceof Response) return outcome.status >= 502 && outcome.status <= 504;
  return outcome instanceof TypeError;
}
