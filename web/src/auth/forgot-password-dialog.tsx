import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { SuccessResponse } from "../../../shared/schemas/common";
import { apiPost, serverMessage } from "../api/client";
import { Button } from "../ui/button";
import { Dialog, DialogClose, DialogFooter } from "../ui/dialog";
import { TextField } from "../ui/field";
import { useToast } from "../ui/toast";
import { resetEmail } from "./stored-emails";

interface ForgotPasswordDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** What the Sign In form's Email field holds: the field starts with it. */
  email: string;
}

export function ForgotPasswordDialog({ open, onOpenChange, email }: ForgotPasswordDialogProps) {
  const { t } = useTranslation("auth");
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t("Reset your password")}
      description={t(
        "Enter the email address of your account and we'll send you a code to set a new password.",
      )}
    >
      {/* Mounted with each opening: it starts from the Sign In form's email every time. */}
      <ResetCodeForm typedEmail={email} onSent={() => onOpenChange(false)} />
    </Dialog>
  );
}

function ResetCodeForm({ typedEmail, onSent }: { typedEmail: string; onSent: () => void }) {
  const [email, setEmail] = useState(typedEmail.trim());
  const navigate = useNavigate();
  const toast = useToast();
  const { t } = useTranslation("auth");

  const sendCode = useMutation({
    mutationFn: (address: string) =>
      apiPost<SuccessResponse>("/api/forgot-password", { email: address }),
    onSuccess: (answer, address) => {
      resetEmail.set(address);
      toast({ title: t("Email sent"), description: answer.message, variant: "success" });
      onSent();
      navigate("/reset-password");
    },
    onError: (error) =>
      toast({
        title: t("Failed to send reset email"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!address) {
      toast({
        title: t("Error"),
        description: t("Please enter your email address"),
        variant: "destructive",
      });
      return;
    }
    sendCode.mutate(address);
  };

  return (
    // noValidate: the empty-email notice comes from us, in the product's words.
    <form className="form-stack" onSubmit={submit} noValidate>
      <TextField
        label={t("Email address")}
        type="email"
        autoComplete="email"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        placeholder={t("you@company.com")}
      />
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="secondary">{t("Cancel")}</Button>
        </DialogClose>
        <Button type="submit" loading={sendCode.isPending}>
          {sendCode.isPending ? t("Sending...") : t("Send reset code")}
        </Button>
      </DialogFooter>
    </form>
  );
}
