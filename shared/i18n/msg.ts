/**
 * Marks an English text that a person reads as a {message} (a schema's error, a constant a
 * command throws) so that `npm run i18n:extract` finds it: the server translates it when it
 * answers (server/middlewares/errors.ts). It returns the text unchanged.
 */
export const msg = <Text extends string>(text: Text): Text => text;
