import { type ComponentType, lazy, Suspense } from "react";
import { BrowserRouter, Route, Routes } from "react-router";
import { DashboardPage } from "../dashboard/dashboard-page";
import { CenteredSpinner } from "../ui/spinner";
import { NotFoundPage } from "./not-found-page";
import { RedirectIfSignedIn, RequireOwner } from "./route-guards";

/** A page's module by its export's name, loaded when the page is first shown. */
function page<Module>(load: () => Promise<Module>, name: keyof Module) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

/**
 * Only the dashboard is in the first load (the owner's first screen, on a phone too): the
 * other pages load when first opened. Signed out, the dashboard's bootstrap knows before
 * React renders, and main.tsx starts loading the sign-in page then.
 */
export const loadAuthPage = () => import("../auth/auth-page");
const AuthPage = page(loadAuthPage, "AuthPage");
const ResetPasswordPage = page(() => import("../auth/reset-password-page"), "ResetPasswordPage");
const VerifyEmailPage = page(() => import("../auth/verify-email-page"), "VerifyEmailPage");
const PricingPage = page(() => import("../billing/pricing-page"), "PricingPage");
const SubscribePage = page(() => import("../billing/subscribe-page"), "SubscribePage");
const JoinTeamPage = page(() => import("../team/join-team-page"), "JoinTeamPage");

/** The owner app's routes (spec section 2). The client portal is its own entry: client.html. */
export function AppRouter() {
  return (
    <BrowserRouter>
      <Suspense fallback={<CenteredSpinner />}>
        <AppRoutes />
      </Suspense>
    </BrowserRouter>
  );
}

function AppRoutes() {
  return (
    <Routes>
      <Route
        path="/"
        element={
          <RequireOwner>
            <DashboardPage />
          </RequireOwner>
        }
      />
      <Route path="/pricing" element={<PricingPage />} />
      <Route
        path="/subscribe"
        element={
          <RequireOwner>
            <SubscribePage />
          </RequireOwner>
        }
      />
      <Route
        path="/auth"
        element={
          <RedirectIfSignedIn>
            <AuthPage />
          </RedirectIfSignedIn>
        }
      />
      <Route path="/verify-email" element={<VerifyEmailPage />} />
      <Route path="/reset-password" element={<ResetPasswordPage />} />
      {/* A team invite's link (issue 26): public, it offers to sign in or up and comes back. */}
      <Route path="/team/invite/:token" element={<JoinTeamPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
