import type { PageCatalogs } from "./namespaces";

/** The client portal's catalogs (web/src/client-portal/main.tsx). */
export const PORTAL_CATALOGS: PageCatalogs = {
  namespaces: ["common", "conversation", "portal", "languages"],
  files: import.meta.glob<Record<string, string>>(
    "../../../shared/locales/*/{common,conversation,portal,errors,languages}.json",
    { import: "default" },
  ),
};
