import { deleteExpiredDesktopSignInCodes } from "../auth/desktop-sign-in-codes";
import type { Job } from "./job";

/**
 * Deletes desktop sign-in codes past their 2 minutes that were never redeemed (a closed app,
 * a failed exchange); redeeming already refuses them. Every instance may run it.
 */
export const desktopSignInCodesCleanupJob: Job = {
  name: "desktop-sign-in-codes-cleanup",
  intervalMs: 60 * 60_000,
  async run(services) {
    const deleted = await deleteExpiredDesktopSignInCodes(services.db, services.clock.now());
    if (deleted > 0) services.logger.info({ deleted }, "desktop sign-in codes cleanup");
  },
};
