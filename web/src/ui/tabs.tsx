import * as RadixTabs from "@radix-ui/react-tabs";
import type { ComponentProps } from "react";
import "./tabs.css";

/** Radix tabs with our styles: arrow keys move between tabs, Tab moves into the panel. */
export const Tabs = RadixTabs.Root;

export function TabsList({
  look = "underline",
  className,
  ...rest
}: ComponentProps<typeof RadixTabs.List> & { look?: "underline" | "pill" }) {
  const classes = ["tabs__list", look === "pill" && "tabs__list--pill", className]
    .filter(Boolean)
    .join(" ");
  return <RadixTabs.List className={classes} {...rest} />;
}

export function TabsTrigger({ className, ...rest }: ComponentProps<typeof RadixTabs.Trigger>) {
  return (
    <RadixTabs.Trigger
      className={["tabs__trigger", className].filter(Boolean).join(" ")}
      {...rest}
    />
  );
}

export function TabsContent({ className, ...rest }: ComponentProps<typeof RadixTabs.Content>) {
  return (
    <RadixTabs.Content
      className={["tabs__content", className].filter(Boolean).join(" ")}
      {...rest}
    />
  );
}
