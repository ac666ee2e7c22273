import { useTranslation } from "react-i18next";
import { Logo } from "../ui/logo";

interface BrandMarkProps {
  /** The owner's logo address, when their plan shows it. */
  logo: string | null;
  /** The owner's company name, when their plan shows it. */
  companyName: string | null;
}

/** The owner's logo, else their company name, else ClientDesk's own logo. */
export function BrandMark({ logo, companyName }: BrandMarkProps) {
  const { t } = useTranslation("portal");
  if (logo) {
    return <img className="brand-mark__logo" src={logo} alt={companyName ?? t("Company logo")} />;
  }
  if (companyName) return <span className="brand-mark__company">{companyName}</span>;
  return <Logo />;
}
