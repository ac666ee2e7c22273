import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { LeaveWarning } from "../conversation/leave-warning";
import { webPlatform } from "../platform/web-platform";
import { AppProviders } from "./providers";
import { AppRouter } from "./router";
import "../ui/theme.css";
import { registerServiceWorker } from "../pwa/register-sw";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

createRoot(root).render(
  <StrictMode>
    <AppProviders platform={webPlatform}>
      {/* Web only: unsent messages live in memory, so leaving asks first (leave-warning.tsx). */}
      <LeaveWarning />
      <AppRouter />
    </AppProviders>
  </StrictMode>,
);

registerServiceWorker();
