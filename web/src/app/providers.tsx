import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { installAppConnectivity } from "../api/app-connectivity";
import { setApiBaseUrl } from "../api/client";
import { UploadTransportProvider } from "../api/upload-transport";
import { createQueryClient } from "../api/query-client";
import { KeepPendingMessages } from "./keep-pending-messages";
import type { Platform } from "../platform/platform";
import { PlatformProvider } from "../platform/platform-context";
import { ToastProvider } from "../ui/toast";

interface AppProvidersProps {
  platform: Platform;
  /** Puts data already loaded in the new cache (the web dashboard's first screen). */
  seed?: (queryClient: QueryClient) => void;
  children: ReactNode;
}

/** Everything the owner app needs around it; the desktop renderer passes its own platform. */
export function AppProviders({ platform, seed, children }: AppProvidersProps) {
  const [queryClient] = useState(() => {
    setApiBaseUrl(platform.serverUrl);
    installAppConnectivity();
    const created = createQueryClient();
    seed?.(created);
    return created;
  });
  return (
    <PlatformProvider platform={platform}>
      <QueryClientProvider client={queryClient}>
        <UploadTransportProvider streamUpload={platform.uploadFile ?? null}>
          <ToastProvider>
            {/* Desktop: unsent messages survive a restart (keep-pending-messages.tsx). */}
            {platform.pendingMessages && <KeepPendingMessages store={platform.pendingMessages} />}
            {children}
          </ToastProvider>
        </UploadTransportProvider>
      </QueryClientProvider>
    </PlatformProvider>
  );
}
