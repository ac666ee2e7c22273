// First: the dashboard's first data is asked for while the modules below are still being
// evaluated (dashboard-bootstrap.ts).
import {
  type DashboardOutcome,
  dashboardBootstrap,
  seedDashboardCache,
} from "../dashboard/dashboard-bootstrap";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { LeaveWarning } from "../conversation/leave-warning";
import { webPlatform } from "../platform/web-platform";
import { AppProviders } from "./providers";
import { AppRouter, loadAuthPage } from "./router";
import "../ui/theme.css";
import { registerServiceWorker } from "../pwa/register-sw";
import { startI18n } from "../i18n/i18n";
import { DASHBOARD_CATALOGS } from "../i18n/dashboard-catalogs";
import { adoptFirstScreenLanguage } from "../i18n/follow-user-language";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

// Rendered once the first data is in (or known not to be): the pages then find it in the
// cache and ask for nothing; rendering earlier would send them to ask for it again.
// The reader's catalogs load alongside it (issue 29): one small chunk per area, in one language.
const catalogs = startI18n(DASHBOARD_CATALOGS);
void Promise.all([dashboardBootstrap, catalogs])
  .then(adoptFirstScreenLanguage)
  .then(([outcome]) => render(outcome));

function render(outcome: DashboardOutcome) {
  if (!root) return;
  // Signed out, the dashboard sends the visitor to /auth: its page starts loading now.
  if (outcome.kind === "signed-out") void loadAuthPage();
  createRoot(root).render(
    <StrictMode>
      <AppProviders
        platform={webPlatform}
        seed={(queryClient) => seedDashboardCache(queryClient, outcome)}
      >
        {/* Web only: unsent messages live in memory, so leaving asks first (leave-warning.tsx). */}
        <LeaveWarning />
        <AppRouter />
      </AppProviders>
    </StrictMode>,
  );
}

registerServiceWorker();
