import { useEffect } from "react";
import { CenteredSpinner } from "./spinner";

/**
 * Leaves this single-page app for another page of the site (the owner app and the client
 * portal are separate entries), showing a spinner until the browser has moved on.
 */
export function FullPageRedirect({ to }: { to: string }) {
  useEffect(() => {
    window.location.replace(to);
  }, [to]);
  return <CenteredSpinner />;
}
