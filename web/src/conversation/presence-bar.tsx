import { useTranslation } from "react-i18next";
import type { PresentPerson } from "../../../shared/realtime-presence";
import { Avatar } from "../ui/avatar";
import { describePresence } from "./presence-text";
import "./presence-bar.css";

/** Avatars shown before "+n". */
const MAX_AVATARS = 3;

interface PresenceBarProps {
  people: readonly PresentPerson[];
  /** The viewer is typing: a colleague typing too is a warning. */
  viewerTyping: boolean;
}

/**
 * Above the staff's composer (issue 26): the colleagues who have this conversation open, and
 * who is typing, so that two people do not answer the client at once. The line is a polite
 * live region, so a screen reader hears "Sam is typing…" without losing its place; it stays in
 * the page while empty (a live region must be there before it speaks) and takes no room then.
 */
export function PresenceBar({ people, viewerTyping }: PresenceBarProps) {
  const { t } = useTranslation("conversation");
  const line = describePresence(people, viewerTyping);
  const shown = people.slice(0, MAX_AVATARS);
  const more = people.length - shown.length;
  return (
    <div
      className={`presence-bar${line.collision ? " presence-bar--collision" : ""}${
        people.length === 0 ? " presence-bar--empty" : ""
      }`}
      // A live region without role="status": the conversation's one status is the
      // new-message announcer, which tests and screen-reader users find by that role.
      aria-live="polite"
    >
      {people.length > 0 && (
        <>
          <span className="presence-bar__avatars">
            {shown.map((person) => (
              <span
                key={person.userId}
                className={`presence-bar__avatar${
                  person.state === "typing" ? " presence-bar__avatar--typing" : ""
                }`}
                title={
                  person.state === "typing"
                    ? t("{{name}} (typing)", { name: person.name })
                    : t("{{name}} (viewing)", { name: person.name })
                }
              >
                <Avatar name={person.name} imageUrl={person.picture} size={22} />
              </span>
            ))}
            {more > 0 && (
              <span className="presence-bar__more" aria-hidden="true">
                +{more}
              </span>
            )}
          </span>
          <span className="presence-bar__text">
            {line.typing && (
              <span className="presence-bar__typing">
                {line.collision && <span className="presence-bar__warning" aria-hidden="true" />}
                {line.typing}
              </span>
            )}
            {line.typing && line.viewing && (
              <span className="presence-bar__separator" aria-hidden="true">
                ·
              </span>
            )}
            {line.viewing && <span className="presence-bar__viewing">{line.viewing}</span>}
          </span>
        </>
      )}
    </div>
  );
}
