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
  withReplaced,
} from "./message-pages";
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
