import type { AppContext } from "../context";
import { badRequest } from "../errors";

/**
 * A path whose percent-escapes do not decode (e.g. /%E0%A4%A) names nothing here: it answers
 * 400 at once, rather than reaching code that decodes it (the web app's file lookup) and
 * failing there with a 500 and a stack in the log.
 */
export function refuseMalformedPath(ctx: AppContext): void {
  if (!ctx.path.includes("%")) return;
  try {
    decodeURIComponent(ctx.path);
  } catch {
    throw badRequest("Malformed URL: a percent-escape in the path is not valid");
  }
}
