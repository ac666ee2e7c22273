import { z } from "zod";
import { LANGUAGES } from "../i18n/languages";
import { msg } from "../i18n/msg";

/** A language a person or a client can be given (issue 29): en, de, fr, es, pt-BR. */
export const languageSchema = z.enum(LANGUAGES, {
  error: msg("Language must be one of en, de, fr, es, pt-BR"),
});

/** A client's invite language: null follows the workspace's. */
export const clientLanguageSchema = languageSchema.nullable();

/** PATCH /api/user/language */
export const userLanguageRequestSchema = z.strictObject({ language: languageSchema });
/** PATCH /api/user/language: the language the person now reads. */
export const userLanguageResponse = z.strictObject({ language: languageSchema });
export type UserLanguageResponse = z.infer<typeof userLanguageResponse>;

/** PATCH /api/workspace/language: the language new clients are invited in. */
export const workspaceLanguageRequestSchema = z.strictObject({ language: languageSchema });
/** GET and PATCH /api/workspace/language */
export const workspaceLanguageResponse = z.strictObject({ language: languageSchema });
export type WorkspaceLanguageResponse = z.infer<typeof workspaceLanguageResponse>;

/** PATCH /api/clients/{id}/language: the client's invite language (null: the workspace's). */
export const clientLanguageRequestSchema = z.strictObject({ language: clientLanguageSchema });
/** PATCH /api/clients/{id}/language */
export const clientLanguageResponse = z.strictObject({ language: clientLanguageSchema });
export type ClientLanguageResponse = z.infer<typeof clientLanguageResponse>;
