/**
 * The longest message the server takes, in characters. Apart from shared/schemas/messages.ts
 * (which carries zod) so that the web app's first load can name it without zod.
 */
export const MESSAGE_MAX_LENGTH = 10_000;
