import { useSyncExternalStore } from "react";
import type { OfflineCause } from "./connectivity";
import { installedConnectivity } from "./installed-connectivity";

const subscribe = (listener: () => void) =>
  installedConnectivity()?.subscribe(listener) ?? (() => {});

/** null while the server can be reached (or nothing watches it); else why not. */
export function useOfflineCause(): OfflineCause | null {
  return useSyncExternalStore(
    subscribe,
    () => installedConnectivity()?.cause ?? null,
    () => null,
  );
}
