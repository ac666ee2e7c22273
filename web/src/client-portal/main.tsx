/**
 * The client portal's own entry (client.html). Clients on phones load only this: it must
 * not import the owner dashboard (app/, auth/, dashboard/, settings/, billing/, platform/).
 */
import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter, Route, Routes } from "react-router";
import { createQueryClient } from "../api/query-client";
import { ToastProvider } from "../ui/toast";
import { ClientPortalPage } from "./client-portal-page";
import { SignInLinkPage } from "./sign-in-link-page";
import { SignedOutPage } from "./signed-out-page";
import "../ui/theme.css";
import "./portal.css";

const root = document.getElementById("root");
if (!root) throw new Error("client.html has no #root element");

const queryClient = createQueryClient();

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <BrowserRouter>
          <Routes>
            <Route path="/client/sign-in" element={<SignInLinkPage />} />
            <Route path="/client/signed-out" element={<SignedOutPage />} />
            <Route path="/client/:clientId" element={<ClientPortalPage />} />
            <Route path="/invite/:token" element={<ClientPortalPage />} />
            <Route path="*" element={<ClientPortalPage />} />
          </Routes>
        </BrowserRouter>
      </ToastProvider>
    </QueryClientProvider>
  </StrictMode>,
);
