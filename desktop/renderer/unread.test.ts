import { beforeAll, describe, expect, it } from "vitest";
import { startEnglish } from "../../tests/support/english-i18n";
import {
  conversationPath,
  newlyUnread,
  notificationBody,
  unreadSnapshot,
  unreadTotal,
} from "./unread";

beforeAll(() => startEnglish(["common"]));

const clients = [
  { id: "a", name: "Acme", unreadCount: 2 },
  { id: "b", name: "Beta", unreadCount: 0 },
];

describe("unread counts", () => {
  it("add up", () => {
    expect(unreadTotal(clients)).toBe(2);
  });

  it("announce only conversations that got new messages since the last list", () => {
    expect(newlyUnread(null, clients)).toEqual([]);
    const before = unreadSnapshot(clients);
    const after = [
      { id: "a", name: "Acme", unreadCount: 2 },
      { id: "b", name: "Beta", unreadCount: 1 },
      { id: "c", name: "New Co", unreadCount: 1 },
    ];
    expect(newlyUnread(before, after).map((client) => client.id)).toEqual(["b", "c"]);
  });

  it("word the notification and find the conversation", () => {
    expect(notificationBody(1)).toBe("New message");
    expect(notificationBody(3)).toBe("3 unread messages");
    expect(conversationPath("a b")).toBe("/?client=a%20b");
  });
});
