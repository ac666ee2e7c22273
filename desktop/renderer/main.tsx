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
import { startI18n } from "../../web/src/i18n/i18n";
import { DASHBOARD_CATALOGS } from "../../web/src/i18n/dashboard-catalogs";
import "../../web/src/ui/theme.css";

const api = (window as unknown as Record<string, DesktopApi | undefined>)[DESKTOP_API_KEY];
const desktopApi: DesktopApi = api ?? missingPreload();
function missingPreload(): never {
  throw new Error("ClientDesk: the desktop preload did not run");
}
const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

const platform = createDesktopPlatform(desktopApi);

// The owner's catalogs (packaged with the app: no download) come before the first render.
void startI18n(DASHBOARD_CATALOGS).then(render);

function render() {
  if (!root) return;
  createRoot(root).render(
    <StrictMode>
      <AppProviders platform={platform}>
        <DesktopBridge api={desktopApi} platform={platform} />
        <AppRouter />
      </AppProviders>
    </StrictMode>,
  );
}
