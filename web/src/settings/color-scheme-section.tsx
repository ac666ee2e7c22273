import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { UserChangedResponse } from "../../../shared/schemas/user";
import { apiPatch, serverMessage } from "../api/client";
import type { User } from "../api/current-user";
import { contrastRatio, MIN_TEXT_CONTRAST } from "../../../shared/colors";
import { brandShades } from "../../../shared/contrast";
import { numberFormat } from "../i18n/formats";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { toHexColor } from "../ui/css-color";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { useToast } from "../ui/toast";
import { applyUserAnswer } from "./user-answer";

type ColorKey = "primaryColor" | "backgroundColor" | "textColor";

/** The colour picker needs #rrggbb; "#abc" becomes "#aabbcc", anything else leaves it black. */
function pickerValue(color: string): string {
  const value = color.trim();
  if (/^#[0-9a-f]{6}$/i.test(value)) return value.toLowerCase();
  if (/^#[0-9a-f]{3}$/i.test(value))
    return `#${[...value.slice(1)].map((c) => c + c).join("")}`.toLowerCase();
  return "#000000";
}

/** Agency tier only: the colours of the client portal. */
export function ColorSchemeSection({ user }: { user: User }) {
  const { t } = useTranslation("settings");
  const colorFields: { key: ColorKey; label: string; pickerLabel: string }[] = [
    { key: "primaryColor", label: t("Primary color"), pickerLabel: t("Primary color picker") },
    {
      key: "backgroundColor",
      label: t("Background color"),
      pickerLabel: t("Background color picker"),
    },
    { key: "textColor", label: t("Text color"), pickerLabel: t("Text color picker") },
  ];
  const [colors, setColors] = useState<Record<ColorKey, string>>({
    primaryColor: user.primaryColor,
    backgroundColor: user.backgroundColor,
    textColor: user.textColor,
  });
  const queryClient = useQueryClient();
  const toast = useToast();
  const setColor = (key: ColorKey, value: string) =>
    setColors((current) => ({ ...current, [key]: value }));

  const save = useMutation({
    mutationFn: () => apiPatch<UserChangedResponse>("/api/user/color-scheme", colors),
    onSuccess: (answer) => {
      applyUserAnswer(queryClient, answer);
      toast({ title: t("Color scheme updated successfully"), variant: "success" });
    },
    onError: (error) =>
      toast({
        title: t("Failed to update color scheme"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });

  // What the portal fills buttons with (as its brandStyle does): the primary, or a darker
  // shade of it so that white text on it stays readable.
  const primary = toHexColor(colors.primaryColor);
  const buttonColor = brandShades({
    primaryColor: primary ?? colors.primaryColor,
    backgroundColor: toHexColor(colors.backgroundColor) ?? colors.backgroundColor,
    textColor: toHexColor(colors.textColor) ?? colors.textColor,
  }).primaryStrong;
  const contrast = contrastRatio(colors.textColor, colors.backgroundColor);
  const hardToRead = contrast !== null && contrast < MIN_TEXT_CONTRAST;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };

  return (
    <section className="settings-section" aria-labelledby="colors-heading">
      <h3 id="colors-heading" className="settings-section__title">
        {t("Color Scheme")}
      </h3>
      <p className="settings-section__hint">
        {t("Your clients see these colours in their portal.")}
      </p>
      <form className="form-stack color-form" onSubmit={submit}>
        <div className="color-fields">
          {colorFields.map(({ key, label, pickerLabel }) => (
            <Field key={key} label={label}>
              {(control) => (
                <div className="color-field">
                  <input
                    type="color"
                    className="color-field__picker"
                    aria-label={pickerLabel}
                    value={pickerValue(colors[key])}
                    onChange={(event) => setColor(key, event.target.value)}
                  />
                  <Input
                    {...control}
                    className="color-field__text"
                    value={colors[key]}
                    spellCheck={false}
                    maxLength={7}
                    onChange={(event) => setColor(key, event.target.value)}
                  />
                </div>
              )}
            </Field>
          ))}
        </div>
        <div
          className="color-preview"
          style={{
            background: pickerValue(colors.backgroundColor),
            color: pickerValue(colors.textColor),
          }}
          aria-hidden="true"
        >
          <span>{t("Preview of your client portal")}</span>
          <span className="color-preview__button" style={{ background: buttonColor }}>
            {t("Button")}
          </span>
        </div>
        {primary && buttonColor !== primary && (
          <p className="settings-section__hint">
            {t(
              "Buttons use {{color}}, a darker shade of your primary color, so that their white text stays readable.",
              { color: buttonColor },
            )}
          </p>
        )}
        {hardToRead && (
          <Alert variant="destructive" title={t("Text and background are too close to read")}>
            {t(
              "Their contrast is {{contrast}}:1; clients need at least {{minimum}}:1 to read comfortably (WCAG). Pick a darker text or a lighter background.",
              {
                contrast: numberFormat({
                  minimumFractionDigits: 1,
                  maximumFractionDigits: 1,
                }).format(contrast),
                minimum: numberFormat().format(MIN_TEXT_CONTRAST),
              },
            )}
          </Alert>
        )}
        <div className="settings-actions">
          <Button type="submit" loading={save.isPending}>
            {save.isPending ? t("Saving...") : t("Save Colors")}
          </Button>
        </div>
      </form>
    </section>
  );
}
