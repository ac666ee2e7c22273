import type { ColorSchemeInput, NotificationSettingsInput, UpdateProfileInput } from "../../shared/schemas/user";
import { User } from "../models";

export async function updateProfile(actor: User, input: UpdateProfileInput): Promise<User> {
  return await User.query().patchAndFetchById(actor.id, {
    fullName: input.fullName,
    companyName: input.companyName || null,
  });
}

export async function updateNotificationSettings(actor: User, input: NotificationSettingsInput): Promise<User> {
  return await User.query().patchAndFetchById(actor.id, { emailNotificationDelay: input.emailNotificationDelay });
}

export async function updateColorScheme(actor: User, input: ColorSchemeInput): Promise<User> {
  return await User.query().patchAndFetchById(actor.id, input);
}
