import type { Presence } from "./use-presence";

const noop = () => undefined;
const NO_PRESENCE: Presence = { people: [], typing: false, onTyping: noop, onSent: noop };

/** The portal's conversation: clients neither show nor see presence. */
export const useNoPresence = (_clientId: string): Presence => NO_PRESENCE;
