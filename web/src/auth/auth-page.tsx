import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { safeNextPath } from "../../../shared/next-path";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../ui/tabs";
import { type ToastOptions, useToast } from "../ui/toast";
import { AuthLayout } from "./auth-layout";
import { ForgotPasswordDialog } from "./forgot-password-dialog";
import { GoogleSignIn } from "./google-sign-in";
import { SignInForm } from "./sign-in-form";
import { SignUpForm } from "./sign-up-form";

/**
 * Notices for pages that send the browser here after a failure elsewhere: the Google
 * callback, and the client portal's invite handling (a separate page, so it cannot toast
 * across the navigation itself).
 */
const ARRIVAL_ERRORS: Record<string, ToastOptions> = {
  google: {
    title: "Google sign-in failed",
    description: "Please try again",
    variant: "destructive",
  },
};

type AuthTab = "sign-in" | "sign-up";

export function AuthPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const [tab, setTab] = useState<AuthTab>(
    searchParams.get("tab") === "sign-up" ? "sign-up" : "sign-in",
  );
  const [forgotOpen, setForgotOpen] = useState(false);
  const [typedEmail, setTypedEmail] = useState("");
  const toast = useToast();
  const arrivalError = searchParams.get("error");
  /** Where to go once signed in (a team invite's page); the dashboard otherwise. */
  const next = safeNextPath(searchParams.get("next"));
  const invitedEmail = searchParams.get("email") ?? "";

  useEffect(() => {
    const notice = arrivalError ? ARRIVAL_ERRORS[arrivalError] : undefined;
    if (!notice) return;
    toast(notice);
    setSearchParams(
      (params) => {
        params.delete("error");
        return params;
      },
      { replace: true },
    );
  }, [arrivalError, toast, setSearchParams]);

  return (
    <AuthLayout
      title={tab === "sign-in" ? "Welcome back" : "Create your account"}
      subtitle={
        tab === "sign-in"
          ? "Sign in to talk with your clients, share files and get approvals."
          : "Start free with one client. Upgrade whenever you need more."
      }
    >
      <Tabs value={tab} onValueChange={(value) => setTab(value as AuthTab)}>
        <TabsList look="pill" aria-label="Sign in or sign up">
          <TabsTrigger value="sign-in">Sign In</TabsTrigger>
          <TabsTrigger value="sign-up">Sign Up</TabsTrigger>
        </TabsList>
        <TabsContent value="sign-in">
          <SignInForm
            next={next}
            initialEmail={invitedEmail}
            onForgotPassword={(email) => {
              setTypedEmail(email);
              setForgotOpen(true);
            }}
          />
        </TabsContent>
        <TabsContent value="sign-up">
          <SignUpForm next={next} initialEmail={invitedEmail} />
        </TabsContent>
      </Tabs>
      <GoogleSignIn next={next} />
      <ForgotPasswordDialog open={forgotOpen} onOpenChange={setForgotOpen} email={typedEmail} />
    </AuthLayout>
  );
}
