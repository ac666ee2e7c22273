import { Router } from "@koa/router";
import type { BillingModeAnswer } from "../../../shared/schemas/billing";
import type { AreaRouter } from "../area-router";

const router: AreaRouter = new Router();

/**
 * Public, like /api/auth/google-available: the web app shows the TEST MODE bar, or hides
 * plans and pricing when billing is off, before anyone signs in (e.g. on /pricing).
 */
router.get("/api/billing-mode", (ctx) => {
  const answer: BillingModeAnswer = { mode: ctx.services.config.billingMode };
  ctx.set("Cache-Control", "no-store");
  ctx.body = answer;
});

export default router;
