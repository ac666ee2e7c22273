import { useTranslation } from "react-i18next";
import type { SavedReplyVariable } from "../../../shared/saved-reply-variables";

interface VariableTexts {
  /** What the variable is filled in with: "the client's name". */
  meaning: string;
  /** The variable button's title: "Filled in with the client's name". */
  filledIn: string;
}

/**
 * What each saved-reply variable stands for, in the reader's language. The English is
 * SAVED_REPLY_VARIABLES's `meaning`; the button's title is a sentence of its own, since a
 * language may inflect the meaning after "Filled in with".
 */
export function useVariableTexts(): Record<SavedReplyVariable, VariableTexts> {
  const { t } = useTranslation("settings");
  return {
    "client.firstName": {
      meaning: t("the first name of the client's first person"),
      filledIn: t("Filled in with the first name of the client's first person"),
    },
    "client.name": {
      meaning: t("the client's name"),
      filledIn: t("Filled in with the client's name"),
    },
    "me.firstName": {
      meaning: t("your first name"),
      filledIn: t("Filled in with your first name"),
    },
    "portal.link": {
      meaning: t("the link to the client's portal"),
      filledIn: t("Filled in with the link to the client's portal"),
    },
  };
}
