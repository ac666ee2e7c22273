import { QueryClient } from "@tanstack/react-query";
import { beforeAll, describe, expect, it } from "vitest";
import { queryKeys } from "../api/query-keys";
import { invalidationsFor } from "../realtime/use-realtime";
import { fromLocalInput, quickChoices, sendAtProblem, toLocalInput } from "./send-later-times";
import { startTestLanguage } from "./test-language";

beforeAll(() => startTestLanguage("en"));

/** The keys among `keys` that invalidating each of `by` marks stale. */
async function staleAfter(keys: readonly (readonly unknown[])[], by: readonly unknown[][]) {
  const queryClient = new QueryClient();
  for (const key of keys) queryClient.setQueryData(key, "loaded");
  for (const queryKey of by) await queryClient.invalidateQueries({ queryKey, refetchType: "none" });
  return queryClient
    .getQueryCache()
    .getAll()
    .filter((query) => query.state.isInvalidated)
    .map((query) => query.queryKey);
}

describe("the scheduled messages' list", () => {
  const mine = queryKeys.scheduled("c1");
  const other = queryKeys.scheduled("c2");

  it("refetches on its conversation's scheduled_changed only, not the messages", async () => {
    const event = { type: "scheduled_changed", clientId: "c1" } as const;
    const messages = queryKeys.messages("c1");
    const stale = await staleAfter([mine, other, messages], [...invalidationsFor(event, "owner")]);
    expect(stale).toEqual([mine]);
  });

  it("refetches with every conversation after a reconnect", async () => {
    expect(await staleAfter([mine, other], [[...queryKeys.allMessages]])).toEqual([mine, other]);
  });
});

describe("the quick choices", () => {
  // Months are 0-based: 2026-12-02 is a Wednesday.
  const at = (day: number, hours = 22) => new Date(2026, 11, day, hours, 30);

  it("are tomorrow at 9:00 and the next Monday at 9:00, local time", () => {
    const [tomorrow, monday] = quickChoices(at(2));
    expect(tomorrow!.label).toBe("Tomorrow 9:00");
    expect(tomorrow!.at).toEqual(new Date(2026, 11, 3, 9, 0));
    expect(monday!.label).toBe("Monday 9:00");
    expect(monday!.at).toEqual(new Date(2026, 11, 7, 9, 0));
  });

  it("on a Monday offer the next week's Monday, on a Sunday tomorrow's", () => {
    expect(quickChoices(at(7))[1]!.at).toEqual(new Date(2026, 11, 14, 9, 0));
    expect(quickChoices(at(6))[1]!.at).toEqual(new Date(2026, 11, 7, 9, 0));
  });
});

describe("the picker's time", () => {
  it("reads and writes a datetime-local value in local time", () => {
    const at = new Date(2027, 0, 4, 9, 5);
    expect(toLocalInput(at)).toBe("2027-01-04T09:05");
    expect(fromLocalInput("2027-01-04T09:05")).toEqual(at);
    expect(fromLocalInput("")).toBeUndefined();
  });

  it("says what the server would refuse", () => {
    const now = new Date(2026, 11, 2, 12, 0);
    expect(sendAtProblem(undefined, now)).toBe("Choose a date and time");
    expect(sendAtProblem(new Date(2026, 11, 2, 12, 0, 30), now)).toBe(
      "Choose a time at least a minute from now",
    );
    expect(sendAtProblem(new Date(2027, 11, 3, 12, 0), now)).toBe(
      "Messages can be scheduled at most a year ahead",
    );
    expect(sendAtProblem(new Date(2026, 11, 3, 9, 0), now)).toBeUndefined();
  });
});
