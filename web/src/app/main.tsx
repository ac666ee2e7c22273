import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
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
      <AppRouter />
    </AppProviders>
  </StrictMode>,
);

registerServiceWorker();
