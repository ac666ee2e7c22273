import { Router } from "@koa/router";
import type { Next } from "koa";
import { setUserImage } from "../../commands/set-user-image";
import type { AppContext } from "../../context";
import { withFeatures } from "../../billing/feature-tier";
import { authenticated, currentUser } from "../../middlewares/authenticated";
import { accountPolicy } from "../../policies/account";
import { presentUser } from "../../presenters/user";
import { personLanguage } from "../../i18n/request-language";
import type { Limit } from "../../security/rate-limiter";
import { type ImageVariant, receiveImage, reencodeImage } from "../../uploads/images";
import type { AreaRouter } from "../area-router";

const router: AreaRouter = new Router({ prefix: "/api/user" });

/** Decoding images costs CPU: a bound per user on top of the 5MB and 40-megapixel limits. */
const IMAGE_UPLOADS_PER_USER: Limit = { points: 60, windowMs: 15 * 60_000 };

/** Checked before a byte of the body is read. */
function allowedTo(action: "uploadProfilePicture" | "uploadCompanyLogo") {
  return async (ctx: AppContext, next: Next) => {
    accountPolicy.authorize(withFeatures(ctx.services.config, currentUser(ctx)), action);
    return next();
  };
}

async function uploadLimit(ctx: AppContext, next: Next) {
  await ctx.services.rateLimiter.consume(
    `image-upload:${currentUser(ctx).id}`,
    IMAGE_UPLOADS_PER_USER,
  );
  return next();
}

/** Reads the image in `field`, re-encodes it for `kind`, stores it and answers with the user. */
function imageUpload(kind: ImageVariant, field: string, message: string) {
  return async (ctx: AppContext) => {
    const actor = currentUser(ctx);
    const upload = await receiveImage(ctx, field);
    const image = await reencodeImage(upload, kind);
    const user = await setUserImage(ctx.services, actor, kind, {
      ...image,
      originalName: upload.originalName,
    });
    ctx.body = {
      success: true,
      message,
      user: presentUser(withFeatures(ctx.services.config, user), await personLanguage(ctx, user)),
    };
  };
}

router.post(
  "/profile-picture",
  authenticated,
  allowedTo("uploadProfilePicture"),
  uploadLimit,
  imageUpload("profilePicture", "profilePicture", "Profile picture updated successfully"),
);

router.post(
  "/company-logo",
  authenticated,
  allowedTo("uploadCompanyLogo"),
  uploadLimit,
  imageUpload("companyLogo", "companyLogo", "Company logo updated successfully"),
);

export default router;
