import { MessageIcon } from "../ui/icons";

export function EmptyConversation({ otherName }: { otherName: string }) {
  return (
    <div className="conversation__empty">
      <span className="conversation__empty-icon">
        <MessageIcon />
      </span>
      <p className="conversation__empty-title">No messages yet</p>
      <p className="conversation__empty-text">
        Say hello to {otherName}. Messages you send appear here.
      </p>
    </div>
  );
}
