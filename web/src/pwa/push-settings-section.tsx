import type { TFunction } from "i18next";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { serverMessage } from "../api/client";
import { Button } from "../ui/button";
import { useToast } from "../ui/toast";
import { type PushState, readPushState, turnPushOff, turnPushOn } from "./push-subscription";
import "./push-settings.css";

/** What each state means for this device, in the reader's language. */
function explanation(state: PushState, t: TFunction<"common">): string {
  switch (state) {
    case "on":
      return t(
        "Notifications are on for this device. New messages show up here when ClientDesk is not open.",
      );
    case "off":
      return t(
        "Get a notification on this device when a new message arrives while ClientDesk is not open.",
      );
    case "denied":
      return t(
        "Notifications are blocked for this site. To allow them, open the site settings (the icon next to the address, or your phone's settings for this browser or app), allow notifications, then come back here.",
      );
    case "install-first":
      return t(
        "On iPhone and iPad, first add ClientDesk to your Home Screen (Share, then Add to Home Screen), open it from there, and turn notifications on in its Settings.",
      );
    case "insecure":
      return t(
        "Notifications need a secure (https) address. Ask whoever runs this ClientDesk to serve it over https.",
      );
    case "unsupported":
      return t(
        "This browser cannot show notifications from websites. Try another browser on this device.",
      );
  }
}

interface PushSettingsSectionProps {
  /** The heading's level and classes follow the page it is in. */
  headingLevel: "h2" | "h3";
  titleClassName: string;
  hintClassName: string;
  className?: string;
}

/**
 * Settings, "Notifications on this device": web push for this browser (client portal and
 * owner dashboard). Not shown in the desktop app, which has notifications of its own.
 */
export function PushSettingsSection({
  headingLevel: Heading,
  titleClassName,
  hintClassName,
  className,
}: PushSettingsSectionProps) {
  const { t } = useTranslation("common");
  const [state, setState] = useState<PushState | null>(null);
  const [busy, setBusy] = useState(false);
  const toast = useToast();

  useEffect(() => {
    let live = true;
    void readPushState().then((read) => live && setState(read));
    return () => {
      live = false;
    };
  }, []);

  const change = async (turnOn: boolean) => {
    setBusy(true);
    try {
      const next = await (turnOn ? turnPushOn() : turnPushOff());
      setState(next);
      if (next === "on")
        toast({ title: t("Notifications are on for this device"), variant: "success" });
      if (!turnOn) toast({ title: t("Notifications are off for this device"), variant: "success" });
    } catch (error) {
      toast({
        title: turnOn
          ? t("Could not turn notifications on")
          : t("Could not turn notifications off"),
        description: serverMessage(
          error,
          turnOn
            ? t("This browser could not reach its notification service. Please try again later.")
            : t("Please try again"),
        ),
        variant: "destructive",
      });
      setState(await readPushState().catch(() => null));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section
      className={["push-settings", className].filter(Boolean).join(" ")}
      aria-labelledby="push-settings-title"
    >
      <Heading id="push-settings-title" className={titleClassName}>
        {t("Notifications on this device")}
      </Heading>
      <p className={hintClassName} role="status" data-push-state={state ?? "loading"}>
        {state ? explanation(state, t) : t("Checking this device...")}
      </p>
      {(state === "on" || state === "off") && (
        <div className="push-settings__actions">
          {state === "off" ? (
            <Button loading={busy} onClick={() => void change(true)}>
              {busy ? t("Turning on...") : t("Turn on notifications")}
            </Button>
          ) : (
            <Button variant="secondary" loading={busy} onClick={() => void change(false)}>
              {busy ? t("Turning off...") : t("Turn off")}
            </Button>
          )}
        </div>
      )}
    </section>
  );
}

export default PushSettingsSection;
