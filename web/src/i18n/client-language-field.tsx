import { useTranslation } from "react-i18next";
import { isLanguage, type Language, LANGUAGE_NAMES } from "../../../shared/i18n/languages";
import type { ClientPayload } from "../../../shared/schemas/clients";
import { serverMessage } from "../api/client";
import { useToast } from "../ui/toast";
import { LanguageSelect } from "./language-select";
import { useSaveClientLanguage, useWorkspaceLanguage } from "./languages-api";

interface ClientLanguageFieldProps {
  /** null: the workspace's. */
  value: Language | null;
  onChange: (language: Language | null) => void;
}

/** A client's invite language: the workspace's default (named) or one of the languages. */
export function ClientLanguageField({ value, onChange }: ClientLanguageFieldProps) {
  const { t } = useTranslation("languages");
  const workspace = useWorkspaceLanguage();
  const defaultName = LANGUAGE_NAMES[workspace.data ?? "en"];
  return (
    <LanguageSelect
      label={t("Invite language")}
      hint={t("The invite and the client's portal use this language until they pick their own.")}
      value={value ?? ""}
      defaultOption={t("Workspace default ({{language}})", { language: defaultName })}
      onChange={(language) => onChange(isLanguage(language) ? language : null)}
    />
  );
}

/** The client's invite language, changed in its People dialog; saved at once. */
export function ClientLanguageSetting({ client }: { client: ClientPayload }) {
  const { t } = useTranslation("languages");
  const save = useSaveClientLanguage(client.id);
  const toast = useToast();
  return (
    <div className="client-language-setting">
      <ClientLanguageField
        value={save.isPending ? (save.variables ?? null) : client.language}
        onChange={(language) =>
          save.mutate(language, {
            onSuccess: () => toast({ title: t("Invite language saved"), variant: "success" }),
            onError: (error) =>
              toast({
                title: t("Failed to change the language"),
                description: serverMessage(error, t("Please try again")),
                variant: "destructive",
              }),
          })
        }
      />
    </div>
  );
}
