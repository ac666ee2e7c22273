import { TIER_CONFIG, type Tier } from "../../shared/tiers";
import type { Storage } from "../storage/storage";
import type { MailBrand } from "./layout";
import type { MailAttachment } from "./mail-message";

/** The owner fields a client's mail needs for the agency look. */
export interface BrandingOwner {
  fullName: string;
  companyName: string | null;
  accountTier: Tier;
  companyLogo: string | null;
  primaryColor: string;
  backgroundColor: string;
  textColor: string;
}

export interface Branding {
  brand?: MailBrand;
  attachments: MailAttachment[];
}

const LOGO_CID = "owner-logo@clientdesk";

/**
 * How mail to a client of `owner` looks: the agency tier's logo (attached inline, since the
 * app's download URLs need a session that a mail reader does not have) and colours; nothing
 * for the other tiers. A logo that cannot be read only leaves the logo out.
 */
export async function brandingFor(
  storage: Storage,
  owner: BrandingOwner,
  onLogoError: (error: unknown) => void = () => {},
): Promise<Branding> {
  const tier = TIER_CONFIG[owner.accountTier];
  if (!tier.logoSupport && !tier.colorCustomization) return { attachments: [] };
  const attachments: MailAttachment[] = [];
  if (tier.logoSupport && owner.companyLogo) {
    try {
      attachments.push({
        filename: "logo.png",
        content: await readAll(await storage.get(owner.companyLogo)),
        contentType: "image/png",
        cid: LOGO_CID,
      });
    } catch (error) {
      onLogoError(error);
    }
  }
  return {
    brand: {
      name: owner.companyName || owner.fullName,
      logoCid: attachments.length > 0 ? LOGO_CID : undefined,
      ...(tier.colorCustomization
        ? {
            primaryColor: owner.primaryColor,
            backgroundColor: owner.backgroundColor,
            textColor: owner.textColor,
          }
        : { primaryColor: "#0093ff", backgroundColor: "#ffffff", textColor: "#1f2328" }),
    },
    attachments,
  };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}
