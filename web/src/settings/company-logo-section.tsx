import { ImageUpload } from "./image-upload";

/** Agency tier only: the logo clients see in their portal header. */
export function CompanyLogoSection({ logoUrl }: { logoUrl: string | null }) {
  return (
    <section className="settings-section" aria-labelledby="logo-heading">
      <div className="settings-section__header">
        <div>
          <h3 id="logo-heading" className="settings-section__title">
            Company Logo
          </h3>
          <p className="settings-section__hint">
            Shown to your clients instead of the ClientDesk logo. Up to 5MB.
          </p>
        </div>
        <ImageUpload
          endpoint="/api/user/company-logo"
          field="companyLogo"
          label={logoUrl ? "Replace logo" : "Upload logo"}
          successTitle="Company logo updated successfully"
          failureTitle="Failed to upload company logo"
        />
      </div>
      <div className="logo-preview">
        {logoUrl ? <img src={logoUrl} alt="Your company logo" /> : <p>No logo uploaded yet</p>}
      </div>
    </section>
  );
}
