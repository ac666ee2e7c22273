import { QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { installAppConnectivity } from "../api/app-connectivity";
import { setApiBaseUrl } from "../api/client";
import { UploadTransportProvider } from "../api/upload-transport";
import { createQueryClient } from "../api/query-client";
import { KeepPendingMessages } from "./keep-pending-messages";
import type { Platform } from "../platform/platform";
import { PlatformProvider } from "../platform/platform-context";
import { ToastProvider } from "../ui/toast";

/** Everything the owner app needs around it; the desktop renderer passes its own platform. */
export function AppProviders({ platform, children }: { platform: Platform; children: ReactNode }) {
  const [queryClient] = useState(() => {
    setApiBaseUrl(platform.serverUrl);
    installAppConnectivity();
    return createQueryClient();
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
