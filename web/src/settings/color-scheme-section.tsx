import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { UserChangedResponse } from "../../../shared/schemas/user";
import { apiPatch, serverMessage } from "../api/client";
import type { User } from "../api/current-user";
import { contrastRatio, MIN_TEXT_CONTRAST } from "../../../shared/colors";
import { brandShades } from "../../../shared/contrast";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { toHexColor } from "../ui/css-color";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { useToast } from "../ui/toast";
import { applyUserAnswer } from "./user-answer";

type ColorKey = "primaryColor" | "backgroundColor" | "textColor";

const COLOR_FIELDS: { key: ColorKey; label: string }[] = [
  { key: "primaryColor", label: "Primary color" },
  { key: "backgroundColor", label: "Background color" },
  { key: "textColor", label: "Text color" },
];

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
      toast({ title: "Color scheme updated successfully", variant: "success" });
    },
    onError: (error) =>
      toast({
        title: "Failed to update color scheme",
        description: serverMessage(error, "Please try again"),
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
        Color Scheme
      </h3>
      <p className="settings-section__hint">Your clients see these colours in their portal.</p>
      <form className="form-stack color-form" onSubmit={submit}>
        <div className="color-fields">
          {COLOR_FIELDS.map(({ key, label }) => (
            <Field key={key} label={label}>
              {(control) => (
                <div className="color-field">
                  <input
                    type="color"
                    className="color-field__picker"
                    aria-label={`${label} picker`}
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
          <span>Preview of your client portal</span>
          <span className="color-preview__button" style={{ background: buttonColor }}>
            Button
          </span>
        </div>
        {primary && buttonColor !== primary && (
          <p className="settings-section__hint">
            Buttons use {buttonColor}, a darker shade of your primary color, so that their white
            text stays readable.
          </p>
        )}
        {hardToRead && (
          <Alert variant="destructive" title="Text and background are too close to read">
            Their contrast is {contrast.toFixed(1)}:1; clients need at least {MIN_TEXT_CONTRAST}:1
            to read comfortably (WCAG). Pick a darker text or a lighter background.
          </Alert>
        )}
        <div className="settings-actions">
          <Button type="submit" loading={save.isPending}>
            {save.isPending ? "Saving..." : "Save Colors"}
          </Button>
        </div>
      </form>
    </section>
  );
}
