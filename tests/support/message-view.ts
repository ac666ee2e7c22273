import type { MessagePayload } from "../../shared/schemas/message-payload";

/** A text message as the presenter makes it (every field, nulls included), with `fields` over it. */
export function presentedMessage(fields: Partial<MessagePayload> & { id: string }): MessagePayload {
  return {
    content: "Hello",
    fileUrl: null,
    previewUrl: null,
    fileName: null,
    senderRole: "owner",
    senderName: "Olivia Owner",
    requiresFeedback: false,
    feedbackStatus: null,
    feedbackComment: null,
    createdAt: "2026-11-29T00:00:00.000Z",
    fileSize: null,
    feedbackAt: null,
    feedbackByName: null,
    versionOf: null,
    versionNumber: 1,
    isLatestVersion: true,
    openMarks: 0,
    dueDate: null,
    read: false,
    authorName: "Olivia Owner",
    authorPicture: null,
    authorId: null,
    editedAt: null,
    deleted: false,
    ...fields,
  };
}
