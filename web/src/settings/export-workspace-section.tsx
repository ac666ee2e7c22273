import { useTranslation } from "react-i18next";
import { exportPaths } from "../../../shared/schemas/exports";
import { useMyTeamRole } from "../api/team-members";
import { ExportButton } from "../conversation/export-button";

/** The whole workspace as a ZIP (issue 28): for its owner and admins. */
export function ExportWorkspaceSection() {
  const { t } = useTranslation("settings");
  const role = useMyTeamRole();
  if (role !== "owner" && role !== "admin") return null;
  return (
    <section className="settings-section" aria-labelledby="export-workspace-heading">
      <div className="settings-section__header">
        <h3 id="export-workspace-heading" className="settings-section__title">
          {t("Export workspace")}
        </h3>
        <ExportButton path={exportPaths.workspace} label={t("Export workspace")} />
      </div>
      <p className="settings-section__hint">
        {t(
          "A ZIP with a folder per client: the conversation (internal notes marked), every file with all its versions, and approvals.csv. Large workspaces are emailed to you as a link that works for 24 hours.",
        )}
      </p>
    </section>
  );
}
