import { type Language, LANGUAGE_NAMES, LANGUAGES } from "../../../shared/i18n/languages";
import { Field } from "../ui/field";

interface LanguageSelectProps {
  label: string;
  hint?: string;
  /** "" is the default option's (defaultOption). */
  value: Language | "";
  onChange: (language: Language | "") => void;
  /** A first option that picks no language (e.g. "Workspace default (English)"). */
  defaultOption?: string;
}

/**
 * A language picker: each language named in itself (Deutsch, Français), so a reader finds
 * their own whatever the page's language is; `lang` lets a screen reader say it right.
 */
export function LanguageSelect({
  label,
  hint,
  value,
  onChange,
  defaultOption,
}: LanguageSelectProps) {
  return (
    <Field label={label} hint={hint}>
      {(control) => (
        <select
          {...control}
          className="input language-select"
          value={value}
          onChange={(event) => onChange(event.target.value as Language | "")}
        >
          {defaultOption !== undefined && <option value="">{defaultOption}</option>}
          {LANGUAGES.map((language) => (
            <option key={language} value={language} lang={language}>
              {LANGUAGE_NAMES[language]}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
