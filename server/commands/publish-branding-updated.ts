import type { Services } from "../context";
import { Client } from "../models";

/**
 * Tells the open portals of this owner's clients that what they show of the owner changed
 * (colours, logo, company name, profile picture, name, or the plan that decides whether the
 * branding shows at all): one branding_updated per joined
 * conversation, after the change is committed. A failure is logged; the portals catch up on
 * their next load.
 */
export async function publishBrandingUpdated(
  services: Pick<Services, "db" | "realtime" | "logger">,
  ownerId: string,
): Promise<void> {
  try {
    const joined = await Client.query(services.db)
      .select("id")
      .where("ownerId", ownerId)
      .whereNotNull("userId");
    // One NOTIFY each, sent side by side: an owner with many clients waits for one round trip.
    await Promise.all(
      joined.map(({ id }) => services.realtime.publish({ type: "branding_updated", clientId: id })),
    );
  } catch (error) {
    services.logger.warn({ err: error, ownerId }, "could not publish branding_updated");
  }
}
