import { DEFAULT_LANGUAGE, type Language, negotiateLanguage } from "../../shared/i18n/languages";
import type { AppContext } from "../context";
import type { User } from "../models";
import { defaultLanguageOf } from "../queries/default-language";

/** The language a person reads, and whether it is their own pick (the user payload's). */
export interface PersonLanguage {
  language: Language;
  chosen: boolean;
}

/**
 * Who reads which language (issue 29, point 3; docs/decisions.md): a person's pick; else a
 * contact reads their client's invite language, else the workspace's; staff read what their
 * browser asks for (Accept-Language), else the workspace's. `defaultLanguage` is the client's
 * or workspace's; undefined when not known (then the browser's, else English).
 */
function languageOf(
  user: Pick<User, "role" | "language"> | undefined,
  defaultLanguage: Language | undefined,
  acceptLanguage: string | undefined,
): PersonLanguage {
  if (user?.language) return { language: user.language, chosen: true };
  const browser = () => negotiateLanguage(acceptLanguage);
  const language =
    user?.role === "client"
      ? (defaultLanguage ?? browser())
      : (browser() ?? defaultLanguage ?? null);
  return { language: language ?? DEFAULT_LANGUAGE, chosen: false };
}

/**
 * The language a request's answers are written in: the signed-in person's (above), else what
 * the browser asks for, else English. Nothing is read for it: the session brings the client's
 * and workspace's language along (auth/session-store.ts). Kept on ctx.state once known.
 */
export function requestLanguage(ctx: AppContext): Language {
  if (ctx.state.language) return ctx.state.language;
  const { user } = ctx.state;
  const { language } = languageOf(user, user?.defaultLanguage, ctx.get("Accept-Language"));
  if (user) ctx.state.language = language;
  return language;
}

/**
 * The language `user` reads, as the user payload carries it (`user` is the one this request
 * answers about, usually the signed-in person); reads the client's or workspace's language
 * when the session did not bring it along.
 */
export async function personLanguage(ctx: AppContext, user: User): Promise<PersonLanguage> {
  // A command's fresh row of the signed-in person lacks what the session brought along.
  const signedIn = ctx.state.user?.id === user.id ? ctx.state.user : undefined;
  const known = user.defaultLanguage ?? signedIn?.defaultLanguage;
  const defaultLanguage =
    user.language || known ? known : await defaultLanguageOf(ctx.services.db, user);
  return languageOf(user, defaultLanguage, ctx.get("Accept-Language"));
}

/** A new owner's workspace language: what their browser asks for, else English. */
export function signUpLanguage(ctx: AppContext): Language {
  return negotiateLanguage(ctx.get("Accept-Language")) ?? DEFAULT_LANGUAGE;
}
