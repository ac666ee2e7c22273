import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../ui/button";
import { ClockIcon } from "../ui/icons";
import { ScheduleDialog } from "./schedule-dialog";
import { quickChoices } from "./send-later-times";
import "./scheduled.css";

/** The menu's items, in order. */
const menuItems = (menu: HTMLElement | null) => [
  ...(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []),
];

interface SendLaterMenuProps {
  disabled: boolean;
  /** Schedules the composer's text for `at`; resolves whether it was scheduled. */
  onSchedule: (at: Date) => Promise<boolean>;
  /** Puts the focus back in the composer (after a choice, or the picker closing). */
  focusComposer: () => void;
}

/**
 * "Send later" beside Send (issue 28): a menu of Tomorrow 9:00, Monday 9:00 (labelled with
 * their dates, in the browser's time zone) and Pick date & time. A menu button as the ARIA
 * pattern has it: the arrow keys, Home and End move between its items, Escape closes it.
 */
export function SendLaterMenu({ disabled, onSchedule, focusComposer }: SendLaterMenuProps) {
  const { t } = useTranslation("conversation");
  const menuId = useId();
  const [open, setOpen] = useState(false);
  const [picking, setPicking] = useState(false);
  const [busy, setBusy] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const choices = open ? quickChoices() : [];

  useEffect(() => {
    if (!open) return;
    menuItems(menuRef.current)[0]?.focus();
    const outside = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !triggerRef.current?.contains(target))
        setOpen(false);
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open]);

  const close = () => {
    setOpen(false);
    triggerRef.current?.focus();
  };

  const onMenuKeyDown = (event: KeyboardEvent) => {
    const list = menuItems(menuRef.current);
    const index = list.indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, number> = {
      ArrowDown: (index + 1) % list.length,
      ArrowUp: (index - 1 + list.length) % list.length,
      Home: 0,
      End: list.length - 1,
    };
    if (event.key in moves) {
      event.preventDefault();
      list[moves[event.key]!]?.focus();
    } else if (event.key === "Escape") {
      event.preventDefault();
      close();
    } else if (event.key === "Tab") {
      setOpen(false);
    }
  };

  const quick = (at: Date) => {
    setOpen(false);
    focusComposer();
    void onSchedule(at);
  };

  const pick = async (at: Date) => {
    setBusy(true);
    const scheduled = await onSchedule(at);
    setBusy(false);
    if (scheduled) setPicking(false);
  };

  return (
    <div className="send-later">
      <Button
        ref={triggerRef}
        variant="secondary"
        size="icon"
        className="send-later__trigger"
        aria-label={t("Send later")}
        title={t("Send later")}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={disabled}
        onClick={() => setOpen((was) => !was)}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown" || event.key === "ArrowUp") {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        <ClockIcon />
      </Button>
      {open && (
        <div
          ref={menuRef}
          id={menuId}
          className="send-later__menu"
          role="menu"
          aria-label={t("Send later")}
          tabIndex={-1}
          onKeyDown={onMenuKeyDown}
        >
          {choices.map((choice) => (
            <button
              key={choice.label}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className="send-later__item"
              onClick={() => quick(choice.at)}
            >
              <span className="send-later__label">{choice.label}</span>
              <span className="send-later__date">{choice.date}</span>
            </button>
          ))}
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            className="send-later__item send-later__item--pick"
            onClick={() => {
              setOpen(false);
              setPicking(true);
            }}
          >
            <span className="send-later__label">{t("Pick date & time…")}</span>
          </button>
        </div>
      )}
      {picking && (
        <ScheduleDialog
          open
          onOpenChange={(next) => !next && setPicking(false)}
          returnFocus={focusComposer}
          title={t("Send later")}
          initialAt={quickChoices()[0]!.at}
          submitLabel={t("Schedule")}
          busy={busy}
          onSubmit={(at) => void pick(at)}
        />
      )}
    </div>
  );
}
