export { Client, type ConversationStats, NO_STATS } from "./Client";
export { EmailCode } from "./EmailCode";
export { Message } from "./Message";
export { NotificationState, type ReadState } from "./NotificationState";
export { PushSubscription } from "./PushSubscription";
export { Session } from "./Session";
export { ShortLink } from "./ShortLink";
export { StoredFile } from "./StoredFile";
export { User } from "./User";
