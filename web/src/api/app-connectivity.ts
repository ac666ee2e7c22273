import { onlineManager } from "@tanstack/react-query";
import { apiUrl } from "./api-base";
import { type Connectivity, createConnectivity } from "./connectivity";
import {
  installConnectivity,
  installedConnectivity,
  isUnreachable,
} from "./installed-connectivity";

async function probeServer(): Promise<boolean> {
  try {
    const answer = await fetch(apiUrl("/healthz"), { cache: "no-store", credentials: "omit" });
    return !isUnreachable(answer);
  } catch {
    return false;
  }
}

/**
 * Installs the owner app's connectivity model (once): requests report to it, the message queue
 * waits on it, the banner shows it, and react-query's queries pause while it is offline instead
 * of failing, so loaded data stays on screen and what was invalidated refetches when it is back.
 */
export function installAppConnectivity(): Connectivity {
  const existing = installedConnectivity();
  if (existing) return existing;
  const connectivity = createConnectivity({
    probe: probeServer,
    network: window,
    isDeviceOnline: () => navigator.onLine,
  });
  installConnectivity(connectivity);
  onlineManager.setEventListener((setOnline) => {
    setOnline(connectivity.state === "online");
    return connectivity.subscribe(() => setOnline(connectivity.state === "online"));
  });
  return connectivity;
}
