import type { Language } from "../../shared/i18n/languages";
import type { Tier } from "../../shared/tiers";
import type { TeamRole } from "../../shared/schemas/team";
import type { Role } from "../../shared/schemas/user";
import type { Pojo } from "objection";
import { BaseModel } from "./BaseModel";

export class User extends BaseModel {
  static override tableName = "users";

  id!: string;
  email!: string;
  passwordHash!: string | null;
  fullName!: string;
  companyName!: string | null;
  role!: Role;
  /** Owner side: the workspace (its owner's user id) and the role in it; null for clients. */
  workspaceId!: string | null;
  teamRole!: TeamRole | null;
  /** Client side: the client whose conversation this person is in (issue 26, contacts). */
  clientId!: string | null;
  /** The IANA zone the person's browser reports (issue 27 due dates); null: UTC. */
  timeZone!: string | null;
  profilePicture!: string | null;
  companyLogo!: string | null;
  primaryColor!: string;
  backgroundColor!: string;
  textColor!: string;
  emailNotificationDelay!: number;
  /**
   * Owner of a workspace (issue 28): days a deleted client is kept for a restore before it is
   * purged; 0 deletes at once.
   */
  deletedClientRetentionDays!: number;
  /** Issue 29: the language this person picked (null: not yet; see server/i18n). */
  language!: Language | null;
  /** Owner of a workspace: the language new clients are invited in. */
  workspaceLanguage!: Language;
  accountTier!: Tier;
  emailVerifiedAt!: Date | null;
  /** A second sign-up came for this address before it was verified (register-owner.ts). */
  signUpRepeatedAt!: Date | null;
  googleSubject!: string | null;
  subscriptionStatus!: string;
  billingPeriod!: string | null;
  subscriptionEndDate!: Date | null;
  paymentFailureGraceEnd!: Date | null;
  /** The grace end the owner was reminded of 4 hours before (billing/remind-failed-payments.ts). */
  paymentReminderFor!: Date | null;
  pausedUntil!: Date | null;
  stripeCustomerId!: string | null;
  stripeSubscriptionId!: string | null;
  cancelAtPeriodEnd!: boolean;
  cancellationReason!: string | null;
  cancellationDetails!: string | null;
  cancellationRequestedAt!: Date | null;
  retentionDiscountCents!: number | null;
  retentionDiscountAt!: Date | null;
  /** Seats bought on top of the plan's (Agency): the subscription's seat item quantity. */
  extraSeats!: number;
  /** Time of the newest billing fact applied (see billing/billing-state.ts). */
  billingSyncedAt!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;
  /**
   * Not a column: the plan of the workspace's owner, which staff work under (issue 26), read
   * with the session (auth/session-store.ts). Absent where a query did not read it.
   */
  workspaceTier?: Tier;
  /**
   * Not a column: the language this person reads until they pick one (issue 29): a contact's
   * client's invite language, else the workspace's. Read with the session; absent elsewhere
   * (queries/default-language.ts reads it then).
   */
  defaultLanguage?: Language;

  override $beforeUpdate() {
    this.updatedAt = new Date();
  }

  override $formatDatabaseJson(json: Pojo): Pojo {
    const {
      workspaceTier: _workspaceTier,
      defaultLanguage: _defaultLanguage,
      ...columns
    } = super.$formatDatabaseJson(json);
    return columns;
  }
}
