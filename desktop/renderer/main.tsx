/**
 * The desktop renderer: the owner app from web/, mounted with the desktop Platform. Served
 * from app://clientdesk/ (or the Vite dev server in development).
 */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { AppProviders } from "../../web/src/app/providers";
import { AppRouter } from "../../web/src/app/router";
import { DESKTOP_API_KEY, type DesktopApi } from "../common/desktop-api";
import { DesktopBridge } from "./desktop-bridge";
import { createDesktopPlatform } from "./desktop-platform";
import "../../web/src/ui/theme.css";

const api = (window as unknown as Record<string, DesktopApi | undefined>)[DESKTOP_API_KEY];
if (!api) throw new Error("ClientDesk: the desktop preload did not run");
const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

const platform = createDesktopPlatform(api);

createRoot(root).render(
  <StrictMode>
    <AppProviders platform={platform}>
      <DesktopBridge api={api} platform={platform} />
      <AppRouter />
    </AppProviders>
  </StrictMode>,
);
