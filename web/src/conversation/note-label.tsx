import { LockIcon } from "../ui/icons";

/** Above an internal note (issue 26), sent or still sending: who sees it, said and read out. */
export function NoteLabel() {
  return (
    <p className="message__note-label">
      <LockIcon />
      <span className="visually-hidden">, </span>
      Internal note
      <span className="visually-hidden">: only your team sees this</span>
    </p>
  );
}
