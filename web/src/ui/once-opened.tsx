import { type ReactNode, Suspense, useState } from "react";

/**
 * Renders `children` (a dialog whose module is loaded lazily) from the first time `open` is
 * true on, and keeps it mounted after it closes, as an always-mounted dialog would be: its
 * code is then left out of the page's first load and fetched when first asked for.
 */
export function OnceOpened({ open, children }: { open: boolean; children: ReactNode }) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened ? <Suspense fallback={null}>{children}</Suspense> : null;
}
