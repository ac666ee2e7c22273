import type { ColorSchemeInput, NotificationSettingsInput, UpdateProfileInput } from "../../shared/schemas/user";
import { User } from "../models";
import type { Knex } from "knex";

export async function updateProfile(db: Knex, actor: User, input: UpdateProfileInput): Promise<User> {
  return await User.query(db).patchAndFetchById(actor.id, {
    fullName: input.fullName,
    companyName: input.companyName || null,
  });
}

export async function updateNotificationSettings(db: Knex, actor: User, input: NotificationSettingsInput): Promise<User> {
  return await User.query(db).patchAndFetchById(actor.id, { emailNotificationDelay: input.emailNotificationDelay });
}

export async function updateColorScheme(db: Knex, actor: User, input: ColorSchemeInput): Promise<User> {
  return await User.query(db).patchAndFetchById(actor.id, input);
}
