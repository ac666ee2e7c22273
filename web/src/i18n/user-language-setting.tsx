import { useTranslation } from "react-i18next";
import { isLanguage } from "../../../shared/i18n/languages";
import { serverMessage } from "../api/client";
import { useCurrentUser } from "../api/current-user";
import { useToast } from "../ui/toast";
import { LanguageSelect } from "./language-select";
import { useSaveMyLanguage } from "./languages-api";

/** Account settings (staff): the language ClientDesk is shown in; saved and switched at once. */
export function UserLanguageSetting() {
  const { t } = useTranslation("languages");
  const { data: user } = useCurrentUser();
  const save = useSaveMyLanguage();
  const toast = useToast();
  if (!user) return null;
  return (
    <section className="settings-section" aria-labelledby="user-language-heading">
      <h3 id="user-language-heading" className="settings-section__title">
        {t("Language")}
      </h3>
      <LanguageSelect
        label={t("Display language")}
        hint={t("ClientDesk is shown to you in this language, on every device you use.")}
        value={save.isPending && save.variables ? save.variables : user.language}
        onChange={(language) => {
          if (!isLanguage(language) || language === user.language) return;
          save.mutate(language, {
            onSuccess: () => toast({ title: t("Language saved"), variant: "success" }),
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
