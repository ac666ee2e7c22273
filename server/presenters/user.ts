import type { User as UserPayload } from "../../shared/schemas/user";
import type { PersonLanguage } from "../i18n/request-language";
import type { User } from "../models";

export function fileUrl(storedName: string | null): string | null {
  return storedName ? `/api/download/${storedName}` : null;
}

/** Every field of a user that leaves the server, listed; `language` as personLanguage says. */
export function presentUser(
  user: User,
  language: PersonLanguage,
  clientId: string | null = null,
): UserPayload {
  return {
    id: user.id,
    email: user.email,
    fullName: user.fullName,
    companyName: user.companyName,
    role: user.role,
    profilePicture: fileUrl(user.profilePicture),
    companyLogo: fileUrl(user.companyLogo),
    primaryColor: user.primaryColor,
    backgroundColor: user.backgroundColor,
    textColor: user.textColor,
    emailNotificationDelay: user.emailNotificationDelay,
    accountTier: user.accountTier,
    emailVerified: user.emailVerifiedAt !== null,
    hasPassword: user.passwordHash !== null,
    clientId,
    timeZone: user.timeZone ?? null,
    language: language.language,
    languageChosen: language.chosen,
  };
}
