/**
 * The client portal's own entry (client.html). Clients on phones load only this: it must
 * not import the owner dashboard (app/, auth/, dashboard/, settings/, billing/, platform/).
 */
// First: its request starts while the modules below are still being evaluated.
import { portalBootstrap, seedPortalCache } from "./portal-bootstrap";
import { QueryClientProvider } from "@tanstack/react-query";
import { lazy, StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { createQueryClient } from "../api/query-client";
import { CenteredSpinner } from "../ui/spinner";
import { ToastProvider } from "../ui/toast";
import { ClientPortalPage } from "./client-portal-page";
import { usePortalRoute } from "./portal-location";
import "../ui/theme.css";
import "./portal.css";
import { registerServiceWorker } from "../pwa/register-sw";
import { startI18n } from "../i18n/i18n";
import { PORTAL_CATALOGS } from "../i18n/portal-catalogs";
import { adoptFirstScreenLanguage } from "../i18n/follow-user-language";

const root = document.getElementById("root");
if (!root) throw new Error("client.html has no #root element");

const queryClient = createQueryClient();

/** An email's Approve or Needs Work page: loaded only when such a link is opened. */
const FeedbackLinkPage = lazy(() => import("./feedback-link-page"));
/** A sign-in link and the signed-out page: rarer than a signed-in visit, loaded when opened. */
const SignInLinkPage = lazy(() =>
  import("./sign-in-link-page").then((module) => ({ default: module.SignInLinkPage })),
);
const SignedOutPage = lazy(() =>
  import("./signed-out-page").then((module) => ({ default: module.SignedOutPage })),
);

/** /client/sign-in, /client/signed-out, /client/feedback/..., and the client page for the rest. */
function PortalPages() {
  const { page, token } = usePortalRoute();
  if (page === "sign-in")
    return (
      <Suspense fallback={<CenteredSpinner />}>
        <SignInLinkPage />
      </Suspense>
    );
  if (page === "feedback" && token) {
    return (
      <Suspense fallback={<CenteredSpinner />}>
        <FeedbackLinkPage token={token} />
      </Suspense>
    );
  }
  if (page === "signed-out")
    return (
      <Suspense fallback={<CenteredSpinner />}>
        <SignedOutPage />
      </Suspense>
    );
  return <ClientPortalPage />;
}

// Rendered once the first data is in (or known not to be): the pages then find it in the
// cache and ask for nothing; rendering earlier would send them to ask for it again.
// The reader's catalogs load alongside it (issue 29): one small chunk per area, in one language.
const catalogs = startI18n(PORTAL_CATALOGS);
void Promise.all([portalBootstrap, catalogs])
  .then(adoptFirstScreenLanguage)
  .then(([outcome]) => {
    seedPortalCache(queryClient, outcome);
    render();
  });

function render() {
  if (!root) return;
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <ToastProvider>
          <PortalPages />
        </ToastProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}

registerServiceWorker();
