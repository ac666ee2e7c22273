import { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { queryKeys } from "../api/query-keys";
import {
  type Message,
  type MessagePage,
  type MessagePages,
  olderPageParam,
  oldestFirst,
  withAppended,
  withArrived,
  withReplaced,
} from "./message-pages";
import { placeArrivedMessage } from "./arrived-message";
import { fetchMessagePage } from "./messages-query";

const message = (id: string, fields: Partial<Message> = {}): Message => ({
  id,
  content: `text ${id}`,
  fileUrl: null,
  previewUrl: null,
  fileName: null,
  senderRole: "owner",
  senderName: "Olivia Owner",
  requiresFeedback: false,
  feedbackStatus: null,
  feedbackComment: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  read: false,
  ...fields,
});
const ids = (messages: Message[]) => messages.map((m) => m.id);

/** A conversation of `count` messages "1".."count" served in pages of `size`, newest first. */
function conversationServer(count: number, size: number) {
  const all = Array.from({ length: count }, (_, i) => message(String(i + 1)));
  const requests: string[] = [];
  const fetch = vi.fn(async (url: string) => {
    requests.push(url);
    const before = new URL(url, "http://localhost").searchParams.get("before");
    const end = before ? all.findIndex((m) => m.id === before) : all.length;
    const page = all.slice(Math.max(0, end - size), end);
    return new Response(JSON.stringify(page), {
      headers: { "content-type": "application/json", "x-has-more": String(end - size > 0) },
    });
  });
  return { fetch, requests };
}

afterEach(() => vi.unstubAllGlobals());

describe("message pages", () => {
  it("walks back through older pages and shows them oldest first", async () => {
    const server = conversationServer(7, 3);
    vi.stubGlobal("fetch", server.fetch);
    const queryClient = new QueryClient();
    const data = await queryClient.fetchInfiniteQuery({
      queryKey: queryKeys.messages("c1"),
      queryFn: ({ pageParam }) => fetchMessagePage("c1", pageParam),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: olderPageParam,
      pages: 5,
    });
    expect(data.pages.map((page) => ids(page.messages))).toEqual([
      ["5", "6", "7"],
      ["2", "3", "4"],
      ["1"],
    ]);
    // Stops at the oldest page: it says nothing older exists.
    expect(server.requests).toEqual([
      "/api/clients/c1/messages",
      "/api/clients/c1/messages?before=5",
      "/api/clients/c1/messages?before=2",
    ]);
    expect(ids(oldestFirst(data))).toEqual(["1", "2", "3", "4", "5", "6", "7"]);
  });

  it("asks for the page before the oldest loaded message, and for none after the last", () => {
    expect(olderPageParam({ messages: [message("a"), message("b")], hasMore: true })).toBe("a");
    expect(olderPageParam({ messages: [message("a")], hasMore: false })).toBeUndefined();
    expect(olderPageParam({ messages: [], hasMore: true })).toBeUndefined();
  });

  const loaded = (...pages: string[][]): MessagePages => ({
    pages: pages.map(
      (pageIds): MessagePage => ({ messages: pageIds.map((id) => message(id)), hasMore: true }),
    ),
    pageParams: pages.map((_, i) => (i === 0 ? undefined : pages[i - 1]![0])),
  });

  it("puts a sent message at the end of the newest page, once", () => {
    const data = loaded(["4", "5"], ["2", "3"]);
    const appended = withAppended(data, message("6"));
    expect(ids(oldestFirst(appended!))).toEqual(["2", "3", "4", "5", "6"]);
    expect(appended!.pageParams).toEqual(data.pageParams);
    // Already there (the refetch after an event was quicker than the answer): unchanged.
    expect(withAppended(appended, message("6"))).toBe(appended);
    expect(withAppended(data, message("3"))).toBe(data);
    // Nothing loaded yet: nothing to put it in (the first fetch brings it).
    expect(withAppended(undefined, message("6"))).toBeUndefined();
    expect(withAppended({ pages: [], pageParams: [] }, message("6"))).toEqual({
      pages: [],
      pageParams: [],
    });
  });

  it("places a message that came with its event right after the one it follows, and only there", () => {
    const data = loaded(["4", "5"], ["2", "3"]);
    const arrived = withArrived(data, message("6"), "5");
    expect(ids(oldestFirst(arrived!))).toEqual(["2", "3", "4", "5", "6"]);
    // Once is enough: the same event again (another tab's echo) changes nothing.
    expect(withArrived(arrived!, message("6"), "5")).toBe(arrived);
    // A gap (the event for "6" was missed) or an event out of order: fetch instead.
    expect(withArrived(data, message("7"), "6")).toBeNull();
    expect(withArrived(arrived!, message("5b"), "5")).toBeNull();
    // A conversation's first message, into an empty conversation.
    const empty: MessagePages = {
      pages: [{ messages: [], hasMore: false }],
      pageParams: [undefined],
    };
    expect(ids(oldestFirst(withArrived(empty, message("1"), null)!))).toEqual(["1"]);
    expect(withArrived(empty, message("2"), "1")).toBeNull();
    // Nothing loaded yet: the first fetch brings it.
    expect(withArrived(undefined, message("6"), "5")).toBeNull();
  });

  it("replaces a loaded message with the server's newer copy in place, on any page", () => {
    const data = loaded(["4", "5"], ["2", "3"]);
    const decided = message("2", { feedbackStatus: "approved" });
    const replaced = withReplaced(data, decided)!;
    expect(ids(oldestFirst(replaced))).toEqual(["2", "3", "4", "5"]);
    expect(oldestFirst(replaced)[0]).toBe(decided);
    expect(oldestFirst(data)[0]!.feedbackStatus).toBeNull();
    expect(ids(oldestFirst(withReplaced(data, message("9"))!))).toEqual(["2", "3", "4", "5"]);
    expect(withReplaced(undefined, decided)).toBeUndefined();
  });
});

describe("placeArrivedMessage", () => {
  const event = (id: string, afterId: string | null | undefined, withMessage = true) => ({
    type: "new_message" as const,
    clientId: "c1",
    messageId: id,
    ...(withMessage ? { message: message(id) } : {}),
    ...(afterId === undefined ? {} : { afterId }),
  });
  const seeded = (...messageIds: string[]) => {
    const queryClient = new QueryClient();
    queryClient.setQueryData<MessagePages>(queryKeys.messages("c1"), {
      pages: [{ messages: messageIds.map((id) => message(id)), hasMore: false }],
      pageParams: [undefined],
    });
    return queryClient;
  };
  const shown = (queryClient: QueryClient) =>
    ids(oldestFirst(queryClient.getQueryData<MessagePages>(queryKeys.messages("c1"))!));

  it("shows the message without a request when it follows the newest loaded one", () => {
    const queryClient = seeded("1", "2");
    expect(placeArrivedMessage(queryClient, event("3", "2"))).toBe(true);
    expect(shown(queryClient)).toEqual(["1", "2", "3"]);
  });

  it("leaves the conversation to a fetch after a gap, without the message, or without afterId", () => {
    const queryClient = seeded("1", "2");
    expect(placeArrivedMessage(queryClient, event("4", "3"))).toBe(false);
    expect(placeArrivedMessage(queryClient, event("3", "2", false))).toBe(false);
    expect(placeArrivedMessage(queryClient, event("3", undefined))).toBe(false);
    expect(
      placeArrivedMessage(queryClient, { type: "messages_read", clientId: "c1", messageId: "2" }),
    ).toBe(false);
    expect(shown(queryClient)).toEqual(["1", "2"]);
  });

  it("does not place a message while the conversation is being fetched (its answer may be older)", async () => {
    const queryClient = seeded("1", "2");
    let answer: (page: MessagePage) => void = () => undefined;
    const fetching = queryClient.fetchInfiniteQuery({
      queryKey: queryKeys.messages("c1"),
      queryFn: () => new Promise<MessagePage>((resolve) => (answer = resolve)),
      initialPageParam: undefined as string | undefined,
    });
    expect(placeArrivedMessage(queryClient, event("3", "2"))).toBe(false);
    answer({ messages: [message("1"), message("2"), message("3")], hasMore: false });
    await fetching;
  });
});
