import type {
  ColorSchemeInput,
  NotificationSettingsInput,
  UpdateProfileInput,
} from "../../shared/schemas/user";
import type { Services } from "../context";
import { User } from "../models";
import type { Knex } from "knex";
import { publishBrandingUpdated } from "./publish-branding-updated";

type BrandingServices = Pick<Services, "db" | "realtime" | "logger">;

/** The portals of an owner's clients show the name and company name: they hear of a change. */
export async function updateProfile(
  services: BrandingServices,
  actor: User,
  input: UpdateProfileInput,
): Promise<User> {
  const user = await User.query(services.db).patchAndFetchById(actor.id, {
    fullName: input.fullName,
    companyName: input.companyName || null,
  });
  if (user.role === "owner") await publishBrandingUpdated(services, user.id);
  return user;
}

export async function updateNotificationSettings(
  db: Knex,
  actor: User,
  input: NotificationSettingsInput,
): Promise<User> {
  return await User.query(db).patchAndFetchById(actor.id, {
    emailNotificationDelay: input.emailNotificationDelay,
  });
}

/** The open portals of the owner's clients take the new colours at once. */
export async function updateColorScheme(
  services: BrandingServices,
  actor: User,
  input: ColorSchemeInput,
): Promise<User> {
  const user = await User.query(services.db).patchAndFetchById(actor.id, input);
  await publishBrandingUpdated(services, user.id);
  return user;
}
