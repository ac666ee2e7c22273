import { useTranslation } from "react-i18next";
import { isLanguage } from "../../../shared/i18n/languages";
import { serverMessage } from "../api/client";
import { useCurrentUser } from "../api/current-user";
import { useToast } from "../ui/toast";
import { LanguageSelect } from "./language-select";
import { useSaveMyLanguage } from "./languages-api";

/** The client portal's settings: the language the portal is shown in; switched at once. */
export function PortalLanguageSetting() {
  const { t } = useTranslation("languages");
  const { data: user } = useCurrentUser();
  const save = useSaveMyLanguage();
  const toast = useToast();
  if (!user) return null;
  return (
    <section className="portal-settings form-stack" aria-labelledby="portal-language-heading">
      <h2 id="portal-language-heading" className="portal-settings__title">
        {t("Language")}
      </h2>
      <LanguageSelect
        label={t("Display language")}
        hint={t("This portal is shown to you in this language.")}
        value={save.isPending && save.variables ? save.variables : user.language}
        onChange={(language) => {
          if (!isLanguage(language) || language === user.language) return;
          save.mutate(language, {
            onSuccess: () => toast({ title: t("Language saved"), variant: "success" }),
            onError: (error) =>
              toast({
                title: t("We could not change the language"),
                description: serverMessage(error, t("Please try again")),
                variant: "destructive",
              }),
          });
        }}
      />
    </section>
  );
}
