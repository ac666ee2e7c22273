import type { PresentPerson } from "../../../shared/realtime-presence";
import { i18n } from "../i18n/i18n";

/**
 * How colleagues in a conversation are named in one short line (issue 26, presence): by first
 * name, unless two share it.
 */
export function presenceNames(people: readonly PresentPerson[]): Map<string, string> {
  const first = (person: PresentPerson) => person.name.trim().split(/\s+/)[0] || person.name;
  const counts = new Map<string, number>();
  for (const person of people) counts.set(first(person), (counts.get(first(person)) ?? 0) + 1);
  return new Map(
    people.map((person) => [
      person.userId,
      (counts.get(first(person)) ?? 0) > 1 ? person.name : first(person),
    ]),
  );
}

/** "Sam", "Sam and Alex", "Sam, Alex and 2 others". */
export function listNames(names: readonly string[]): string {
  const [first = "", second = "", third = ""] = names;
  if (names.length <= 1) return first;
  if (names.length === 2)
    return i18n.t("{{first}} and {{second}}", { ns: "conversation", first, second });
  if (names.length === 3)
    return i18n.t("{{first}}, {{second}} and {{third}}", {
      ns: "conversation",
      first,
      second,
      third,
    });
  return i18n.t("{{first}}, {{second}} and {{count}} others", {
    ns: "conversation",
    first,
    second,
    count: names.length - 2,
  });
}

export interface PresenceLine {
  /** Who types, as a sentence; null when nobody does. */
  typing: string | null;
  /** Who only views, as a sentence; null when nobody does. */
  viewing: string | null;
  /** A colleague types while the viewer does too: the line warns. */
  collision: boolean;
}

/**
 * What the line above the composer says: "Sam is typing…" (or, while the viewer types too,
 * "Sam is typing a reply too") and "Alex is viewing".
 */
export function describePresence(
  people: readonly PresentPerson[],
  viewerTyping: boolean,
): PresenceLine {
  const names = presenceNames(people);
  const nameOf = (person: PresentPerson) => names.get(person.userId) ?? person.name;
  const typing = people.filter((person) => person.state === "typing").map(nameOf);
  const viewing = people.filter((person) => person.state === "viewing").map(nameOf);
  const collision = viewerTyping && typing.length > 0;
  // count: "is" or "are" (and the like in other languages) by how many are named.
  const typingNames = listNames(typing);
  return {
    typing:
      typing.length === 0
        ? null
        : collision
          ? i18n.t("{{names}} are typing a reply too", {
              ns: "conversation",
              names: typingNames,
              count: typing.length,
            })
          : i18n.t("{{names}} are typing…", {
              ns: "conversation",
              names: typingNames,
              count: typing.length,
            }),
    viewing:
      viewing.length === 0
        ? null
        : i18n.t("{{names}} are viewing", {
            ns: "conversation",
            names: listNames(viewing),
            count: viewing.length,
          }),
    collision,
  };
}
