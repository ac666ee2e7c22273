import {
  type ComponentProps,
  createContext,
  type KeyboardEvent,
  useContext,
  useId,
  useMemo,
} from "react";
import "./tabs.css";

/**
 * Tabs after the WAI-ARIA tabs pattern: arrow keys (mirrored right to left), Home and End move
 * between tabs and select the one they reach; Tab moves into the panel. Our own rather than
 * Radix's: the client portal's first screen has tabs, and Radix Tabs brought 8 KB (gzip) of
 * collection and roving-focus code to it (docs/decisions.md, "The portal's budget and i18next").
 */
interface TabsState {
  value: string;
  select: (value: string) => void;
  idFor: (value: string, part: "tab" | "panel") => string;
}

const TabsContext = createContext<TabsState | null>(null);

function useTabs(): TabsState {
  const state = useContext(TabsContext);
  if (!state) throw new Error("Tabs parts must be inside <Tabs>");
  return state;
}

const dataState = (active: boolean) => (active ? "active" : "inactive");

export function Tabs({
  value,
  onValueChange,
  children,
  ...rest
}: Omit<ComponentProps<"div">, "onChange"> & {
  value: string;
  onValueChange: (value: string) => void;
}) {
  const base = useId();
  const state = useMemo<TabsState>(
    () => ({
      value,
      select: onValueChange,
      idFor: (tab, part) => `${base}-${part}-${tab}`,
    }),
    [base, value, onValueChange],
  );
  return (
    <TabsContext.Provider value={state}>
      <div data-orientation="horizontal" {...rest}>
        {children}
      </div>
    </TabsContext.Provider>
  );
}

/** Moves focus (and the selection) to the tab an arrow, Home or End key points at. */
function moveFocus(event: KeyboardEvent<HTMLDivElement>) {
  const tabs = [
    ...event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]:not(:disabled)'),
  ];
  const current = tabs.indexOf(document.activeElement as HTMLButtonElement);
  if (current === -1) return;
  const rtl = getComputedStyle(event.currentTarget).direction === "rtl";
  const step = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1 }[event.key];
  const next =
    event.key === "Home"
      ? 0
      : event.key === "End"
        ? tabs.length - 1
        : step === undefined
          ? null
          : (current + step + tabs.length) % tabs.length;
  if (next === null) return;
  event.preventDefault();
  tabs[next]?.focus();
  tabs[next]?.click();
}

export function TabsList({
  look = "underline",
  className,
  ...rest
}: ComponentProps<"div"> & { look?: "underline" | "pill" }) {
  const classes = ["tabs__list", look === "pill" && "tabs__list--pill", className]
    .filter(Boolean)
    .join(" ");
  return (
    <div
      role="tablist"
      aria-orientation="horizontal"
      className={classes}
      onKeyDown={moveFocus}
      {...rest}
    />
  );
}

export function TabsTrigger({
  value,
  className,
  ...rest
}: Omit<ComponentProps<"button">, "value"> & { value: string }) {
  const tabs = useTabs();
  const active = tabs.value === value;
  return (
    <button
      type="button"
      role="tab"
      id={tabs.idFor(value, "tab")}
      aria-selected={active}
      aria-controls={tabs.idFor(value, "panel")}
      data-state={dataState(active)}
      // The selected tab is the list's one stop for Tab; arrows reach the others.
      tabIndex={active ? 0 : -1}
      className={["tabs__trigger", className].filter(Boolean).join(" ")}
      onClick={() => tabs.select(value)}
      {...rest}
    />
  );
}

/** A tab's panel: its content is mounted only while its tab is selected. */
export function TabsContent({
  value,
  className,
  children,
  ...rest
}: Omit<ComponentProps<"div">, "value"> & { value: string }) {
  const tabs = useTabs();
  const active = tabs.value === value;
  return (
    <div
      role="tabpanel"
      id={tabs.idFor(value, "panel")}
      aria-labelledby={tabs.idFor(value, "tab")}
      data-state={dataState(active)}
      hidden={!active}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the WAI-ARIA tabs pattern: Tab from the tab list reaches the panel, also when it holds nothing focusable
      tabIndex={0}
      className={["tabs__content", className].filter(Boolean).join(" ")}
      {...rest}
    >
      {active && children}
    </div>
  );
}
