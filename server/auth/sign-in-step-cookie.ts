import type { AppContext } from "../context";

/**
 * A short-lived HttpOnly cookie carrying one step of a Google sign-in (the pending state, the
 * desktop hand-off awaiting confirmation). Under https it gets the __Host- prefix: no subdomain
 * can set or shadow it. Lax, not Strict: it must come back on the top-level navigation that
 * returns from Google (cross-site); a foreign site's POST never carries it.
 */
export function signInStepCookie(ctx: AppContext, name: string, maxAgeMs: number) {
  const options = {
    httpOnly: true,
    sameSite: "lax" as const,
    secure: ctx.services.config.secureCookies,
    overwrite: true,
    signed: false,
    path: "/",
    maxAge: maxAgeMs,
  };
  const cookieName = ctx.services.config.secureCookies ? `__Host-${name}` : name;
  return {
    get: () => ctx.cookies.get(cookieName),
    set: (value: string) => ctx.cookies.set(cookieName, value, options),
    clear: () => ctx.cookies.set(cookieName, null, { ...options, maxAge: undefined }),
  };
}
