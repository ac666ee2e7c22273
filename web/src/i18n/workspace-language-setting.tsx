import { useTranslation } from "react-i18next";
import { isLanguage } from "../../../shared/i18n/languages";
import { serverMessage } from "../api/client";
import { useMyTeamRole } from "../api/team-members";
import { useToast } from "../ui/toast";
import { LanguageSelect } from "./language-select";
import { useSaveWorkspaceLanguage, useWorkspaceLanguage } from "./languages-api";

/**
 * Workspace settings (its owner and admins): the language new clients are invited in, unless
 * one is chosen for a client. Saved at once.
 */
export function WorkspaceLanguageSetting() {
  const { t } = useTranslation("languages");
  const role = useMyTeamRole();
  const manages = role === "owner" || role === "admin";
  const current = useWorkspaceLanguage(manages);
  const save = useSaveWorkspaceLanguage();
  const toast = useToast();
  if (!manages || !current.data) return null;
  return (
    <section className="settings-section" aria-labelledby="workspace-language-heading">
      <h3 id="workspace-language-heading" className="settings-section__title">
        {t("Workspace language")}
      </h3>
      <LanguageSelect
        label={t("Language for new clients")}
        hint={t(
          "Invites and the client portal use this language unless you choose another for a client. Each person can still pick their own.",
        )}
        value={save.isPending && save.variables ? save.variables : current.data}
        onChange={(language) => {
          if (!isLanguage(language) || language === current.data) return;
          save.mutate(language, {
            onSuccess: () => toast({ title: t("Workspace language saved"), variant: "success" }),
            onError: (error) =>
              toast({
                title: t("Failed to change the language"),
                description: serverMessage(error, t("Please try again")),
                variant: "destructive",
              }),
          });
        }}
      />
    </section>
  );
}
