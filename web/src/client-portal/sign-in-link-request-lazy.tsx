import { lazy, Suspense } from "react";

const Form = lazy(() =>
  import("./sign-in-link-request").then((module) => ({ default: module.SignInLinkRequest })),
);

/**
 * "Email me a sign-in link", loaded when a signed-out page shows it: its form fields stay out
 * of the portal's first load (which signed-in clients, the usual case, never need).
 */
export function SignInLinkRequest({ intro = true }: { intro?: boolean }) {
  return (
    <Suspense fallback={null}>
      <Form intro={intro} />
    </Suspense>
  );
}
