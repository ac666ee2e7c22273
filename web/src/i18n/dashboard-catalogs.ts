import type { PageCatalogs } from "./namespaces";

/** The owner app's catalogs (web/src/app/main.tsx and the desktop renderer). */
export const DASHBOARD_CATALOGS: PageCatalogs = {
  namespaces: ["common", "conversation", "auth", "dashboard", "settings", "billing", "languages"],
  files: import.meta.glob<Record<string, string>>(
    "../../../shared/locales/*/{common,conversation,auth,dashboard,settings,billing,errors,languages}.json",
    { import: "default" },
  ),
};
