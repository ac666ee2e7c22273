import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { UserChangedResponse } from "../../../shared/schemas/user";
import { apiPatch, serverMessage } from "../api/client";
import { type User, useCurrentUser } from "../api/current-user";
import { Avatar } from "../ui/avatar";
import { Button } from "../ui/button";
import { TextField } from "../ui/field";
import { useToast } from "../ui/toast";
import { ImageUpload } from "./image-upload";
import { applyUserAnswer } from "./user-answer";
import { UserLanguageSetting } from "../i18n/user-language-setting";

export function ProfileTab() {
  const { data: user } = useCurrentUser();
  if (!user) return null;
  return <ProfileForm user={user} />;
}

function ProfileForm({ user }: { user: User }) {
  const { t } = useTranslation("settings");
  const [fullName, setFullName] = useState(user.fullName);
  const [companyName, setCompanyName] = useState(user.companyName ?? "");
  const queryClient = useQueryClient();
  const toast = useToast();

  const save = useMutation({
    mutationFn: () => apiPatch<UserChangedResponse>("/api/user/profile", { fullName, companyName }),
    onSuccess: (answer) => {
      applyUserAnswer(queryClient, answer);
      toast({ title: t("Profile updated successfully"), variant: "success" });
    },
    onError: (error) =>
      toast({
        title: t("Failed to update profile"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };

  return (
    <div className="settings-section-list">
      <section className="settings-section" aria-labelledby="profile-picture-heading">
        <div className="picture-row">
          <Avatar name={user.fullName} imageUrl={user.profilePicture} size={64} />
          <div className="picture-row__text">
            <h3 id="profile-picture-heading" className="settings-section__title">
              {t("Profile picture")}
            </h3>
            <p className="settings-section__hint">
              {t("An image up to 5MB. Your clients see it next to your messages.")}
            </p>
          </div>
          <ImageUpload
            endpoint="/api/user/profile-picture"
            field="profilePicture"
            label={t("Upload")}
            successTitle={t("Profile picture updated successfully")}
            failureTitle={t("Failed to upload profile picture")}
          />
        </div>
      </section>
      <form className="form-stack" onSubmit={submit}>
        <div className="settings-grid">
          <TextField
            label={t("Full name")}
            autoComplete="name"
            required
            value={fullName}
            onChange={(event) => setFullName(event.target.value)}
          />
          <TextField
            label={t("Company name")}
            autoComplete="organization"
            value={companyName}
            onChange={(event) => setCompanyName(event.target.value)}
            placeholder={t("Optional")}
          />
        </div>
        <TextField
          label={t("Email")}
          type="email"
          value={user.email}
          readOnly
          hint={t("Your email address cannot be changed.")}
        />
        <div className="settings-actions">
          <Button type="submit" loading={save.isPending}>
            {save.isPending ? t("Saving...") : t("Save Changes")}
          </Button>
        </div>
      </form>
      <UserLanguageSetting />
    </div>
  );
}
