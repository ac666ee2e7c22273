import { BaseModel } from "./BaseModel";

/** One browser's web push subscription, made in (and ending with) one session of its user. */
export class PushSubscription extends BaseModel {
  static override tableName = "push_subscriptions";

  id!: string;
  userId!: string;
  sessionHash!: string;
  endpoint!: string;
  p256dh!: string;
  auth!: string;
  createdAt!: Date;
  lastSuccessAt!: Date | null;
}
