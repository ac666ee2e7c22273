import { useEffect, useState } from "react";
import { serverMessage } from "../api/client";
import { Button } from "../ui/button";
import { useToast } from "../ui/toast";
import { type PushState, readPushState, turnPushOff, turnPushOn } from "./push-subscription";
import "./push-settings.css";

const EXPLANATION: Record<PushState, string> = {
  on: "Notifications are on for this device. New messages show up here when ClientDesk is not open.",
  off: "Get a notification on this device when a new message arrives while ClientDesk is not open.",
  denied:
    "Notifications are blocked for this site. To allow them, open the site settings (the icon next to the address, or your phone's settings for this browser or app), allow notifications, then come back here.",
  "install-first":
    "On iPhone and iPad, first add ClientDesk to your Home Screen (Share, then Add to Home Screen), open it from there, and turn notifications on in its Settings.",
  insecure:
    "Notifications need a secure (https) address. Ask whoever runs this ClientDesk to serve it over https.",
  unsupported:
    "This browser cannot show notifications from websites. Try another browser on this device.",
};

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
        toast({ title: "Notifications are on for this device", variant: "success" });
      if (!turnOn) toast({ title: "Notifications are off for this device", variant: "success" });
    } catch (error) {
      toast({
        title: turnOn ? "Could not turn notifications on" : "Could not turn notifications off",
        description: serverMessage(
          error,
          turnOn
            ? "This browser could not reach its notification service. Please try again later."
            : "Please try again",
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
        Notifications on this device
      </Heading>
      <p className={hintClassName} role="status" data-push-state={state ?? "loading"}>
        {state ? EXPLANATION[state] : "Checking this device..."}
      </p>
      {(state === "on" || state === "off") && (
        <div className="push-settings__actions">
          {state === "off" ? (
            <Button loading={busy} onClick={() => void change(true)}>
              {busy ? "Turning on..." : "Turn on notifications"}
            </Button>
          ) : (
            <Button variant="secondary" loading={busy} onClick={() => void change(false)}>
              {busy ? "Turning off..." : "Turn off"}
            </Button>
          )}
        </div>
      )}
    </section>
  );
}

export default PushSettingsSection;
