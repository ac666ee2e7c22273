import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { safeNextPath } from "../../../shared/next-path";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../ui/tabs";
import { useToast } from "../ui/toast";
import { AuthLayout } from "./auth-layout";
import { ForgotPasswordDialog } from "./forgot-password-dialog";
import { GoogleSignIn } from "./google-sign-in";
import { SignInForm } from "./sign-in-form";
import { SignUpForm } from "./sign-up-form";

type AuthTab = "sign-in" | "sign-up";

export function AuthPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const [tab, setTab] = useState<AuthTab>(
    searchParams.get("tab") === "sign-up" ? "sign-up" : "sign-in",
  );
  const [forgotOpen, setForgotOpen] = useState(false);
  const [typedEmail, setTypedEmail] = useState("");
  const toast = useToast();
  const { t } = useTranslation("auth");
  const arrivalError = searchParams.get("error");
  /** Where to go once signed in (a team invite's page); the dashboard otherwise. */
  const next = safeNextPath(searchParams.get("next"));
  const invitedEmail = searchParams.get("email") ?? "";

  /**
   * Notices for pages that send the browser here after a failure elsewhere: the Google
   * callback, and the client portal's invite handling (a separate page, so it cannot toast
   * across the navigation itself).
   */
  useEffect(() => {
    if (arrivalError !== "google") return;
    toast({
      title: t("Google sign-in failed"),
      description: t("Please try again"),
      variant: "destructive",
    });
    setSearchParams(
      (params) => {
        params.delete("error");
        return params;
      },
      { replace: true },
    );
  }, [arrivalError, toast, setSearchParams, t]);

  return (
    <AuthLayout
      title={tab === "sign-in" ? t("Welcome back") : t("Create your account")}
      subtitle={
        tab === "sign-in"
          ? t("Sign in to talk with your clients, share files and get approvals.")
          : t("Start free with one client. Upgrade whenever you need more.")
      }
    >
      <Tabs value={tab} onValueChange={(value) => setTab(value as AuthTab)}>
        <TabsList look="pill" aria-label={t("Sign in or sign up")}>
          <TabsTrigger value="sign-in">{t("Sign In")}</TabsTrigger>
          <TabsTrigger value="sign-up">{t("Sign Up")}</TabsTrigger>
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
