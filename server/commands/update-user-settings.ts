import type {
  ColorSchemeInput,
  NotificationSettingsInput,
  UpdateProfileInput,
} from "../../shared/schemas/user";
import type { Services } from "../context";
import { User } from "../models";
import type { Knex } from "knex";

type BrandingServices = Pick<Services, "db" | "events">;

/**
 * Patches the user; an owner's change records BrandingChanged in the same transaction (the
 * portals of their clients show it).
 */
async function patchBranding(
  services: BrandingServices,
  actor: User,
  patch: Partial<User>,
): Promise<User> {
  const { user, recorded } = await services.db.transaction(async (trx) => {
    const user = await User.query(trx).patchAndFetchById(actor.id, patch);
    const recorded =
      user.role === "owner"
        ? await services.events.record(trx, { type: "BrandingChanged", ownerId: user.id })
        : null;
    return { user, recorded };
  });
  if (recorded) services.events.dispatch(recorded);
  return user;
}

/** The portals of an owner's clients show the name and company name: they hear of a change. */
export async function updateProfile(
  services: BrandingServices,
  actor: User,
  input: UpdateProfileInput,
): Promise<User> {
  return await patchBranding(services, actor, {
    fullName: input.fullName,
    companyName: input.companyName || null,
  });
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
  return await patchBranding(services, actor, input);
}
