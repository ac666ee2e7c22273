import { BrowserRouter, Route, Routes } from "react-router";
import { AuthPage } from "../auth/auth-page";
import { ResetPasswordPage } from "../auth/reset-password-page";
import { VerifyEmailPage } from "../auth/verify-email-page";
import { PricingPage } from "../billing/pricing-page";
import { SubscribePage } from "../billing/subscribe-page";
import { DashboardPage } from "../dashboard/dashboard-page";
import { NotFoundPage } from "./not-found-page";
import { RedirectIfSignedIn, RequireOwner } from "./route-guards";

/** The owner app's routes (spec section 2). The client portal is its own entry: client.html. */
export function AppRouter() {
  return (
    <BrowserRouter>
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
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </BrowserRouter>
  );
}
