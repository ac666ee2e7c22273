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
import { SignInLinkPage } from "./sign-in-link-page";
import { usePortalRoute } from "./portal-location";
import { SignedOutPage } from "./signed-out-page";
import "../ui/theme.css";
import "./portal.css";
import { registerServiceWorker } from "../pwa/register-sw";

const root = document.getElementById("root");
if (!root) throw new Error("client.html has no #root element");

const queryClient = createQueryClient();

/** An email's Approve or Needs Work page: loaded only when such a link is opened. */
const FeedbackLinkPage = lazy(() => import("./feedback-link-page"));

/** /client/sign-in, /client/signed-out, /client/feedback/..., and the client page for the rest. */
function PortalPages() {
  const { page, token } = usePortalRoute();
  if (page === "sign-in") return <SignInLinkPage />;
  if (page === "feedback" && token) {
    return (
      <Suspense fallback={<CenteredSpinner />}>
        <FeedbackLinkPage token={token} />
      </Suspense>
    );
  }
  if (page === "signed-out") return <SignedOutPage />;
  return <ClientPortalPage />;
}

// Rendered once the first data is in (or known not to be): the pages then find it in the
// cache and ask for nothing; rendering earlier would send them to ask for it again.
void portalBootstrap.then((outcome) => {
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
