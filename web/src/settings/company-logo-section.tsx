import { useTranslation } from "react-i18next";
import { ImageUpload } from "./image-upload";

/** Agency tier only: the logo clients see in their portal header. */
export function CompanyLogoSection({ logoUrl }: { logoUrl: string | null }) {
  const { t } = useTranslation("settings");
  return (
    <section className="settings-section" aria-labelledby="logo-heading">
      <div className="settings-section__header">
        <div>
          <h3 id="logo-heading" className="settings-section__title">
            {t("Company Logo")}
          </h3>
          <p className="settings-section__hint">
            {t("Shown to your clients instead of the ClientDesk logo. Up to 5MB.")}
          </p>
        </div>
        <ImageUpload
          endpoint="/api/user/company-logo"
          field="companyLogo"
          label={logoUrl ? t("Replace logo") : t("Upload logo")}
          successTitle={t("Company logo updated successfully")}
          failureTitle={t("Failed to upload company logo")}
        />
      </div>
      <div className="logo-preview">
        {logoUrl ? (
          <img src={logoUrl} alt={t("Your company logo")} />
        ) : (
          <p>{t("No logo uploaded yet")}</p>
        )}
      </div>
    </section>
  );
}
