import { type ComponentType, type ReactNode, useEffect, useState } from "react";

/**
 * A part of the page loaded lazily that the page can do without for a while (a menu beside
 * Send, the scheduled list, a message's actions). React.lazy would throw when its code cannot
 * be fetched (the server went away just after the page showed) and blank the whole page; this
 * renders `meanwhile` (nothing by default) instead and tries again at the next render.
 */
export function optionalPart<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
  meanwhile: (props: Props) => ReactNode = () => null,
): ComponentType<Props> {
  let Loaded: ComponentType<Props> | null = null;
  let loading: Promise<ComponentType<Props>> | null = null;

  // biome-ignore lint/correctness/noComponentHookFactories: made once per module, as React.lazy is
  return function OptionalPart(props: Props) {
    const [, setShown] = useState(false);
    useEffect(() => {
      if (Loaded) return;
      let mounted = true;
      loading ??= load().finally(() => {
        loading = null;
      });
      loading.then(
        (component) => {
          Loaded = component;
          if (mounted) setShown(true);
        },
        () => {
          // Offline: nothing shows until a later render fetches it.
        },
      );
      return () => {
        mounted = false;
      };
    });
    return Loaded ? <Loaded {...props} /> : meanwhile(props);
  };
}
