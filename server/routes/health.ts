import { createRouter } from "./router";

const router = createRouter();

router.get("/healthz", async (ctx) => {
  try {
    await ctx.services.db.raw("select 1");
    ctx.body = { status: "ok" };
  } catch (error) {
    ctx.services.logger.error({ err: error }, "health check failed");
    ctx.status = 503;
    ctx.body = { status: "unavailable", message: "Database unavailable" };
  }
});

export default router;
