/**
 * The variables of saved replies (issue 28) and how they are filled. Apart from the zod
 * schemas so that the composer and the settings page can name them without zod.
 */
export const SAVED_REPLY_VARIABLES = [
  { name: "client.firstName", meaning: "the first name of the client's first person" },
  { name: "client.name", meaning: "the client's name" },
  { name: "me.firstName", meaning: "your first name" },
  { name: "portal.link", meaning: "the link to the client's portal" },
] as const;

export type SavedReplyVariable = (typeof SAVED_REPLY_VARIABLES)[number]["name"];
export type SavedReplyValues = Record<SavedReplyVariable, string>;

/** "Carla" of "Carla Client"; a one-word name is its own first name. */
export function firstNameOf(fullName: string): string {
  return fullName.trim().split(/\s+/)[0] ?? "";
}

const KNOWN = new Set<string>(SAVED_REPLY_VARIABLES.map((variable) => variable.name));

/**
 * The text with each known `{variable}` replaced by its value, in one pass (a value that
 * itself reads like a variable stays as it is); anything else in braces stays as typed.
 */
export function fillVariables(text: string, values: SavedReplyValues): string {
  return text.replace(/\{([A-Za-z.]+)\}/g, (whole, name: string) =>
    KNOWN.has(name) ? values[name as SavedReplyVariable] : whole,
  );
}
