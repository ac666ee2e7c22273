import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { invalidationsFor } from "../realtime/use-realtime";
import { queryKeys } from "../api/query-keys";
import { isPoint, type Mark, numberMarks } from "./marks-api";
import { draftBetween } from "./mark-layer";

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

describe("a file version's marks", () => {
  const mine = queryKeys.annotations("c1", "m1", 2);
  const other = queryKeys.annotations("c2", "m2", 1);

  it("refetch on their conversation's annotations_changed, not on another's", async () => {
    const event = { type: "annotations_changed", clientId: "c1", messageId: "m1" } as const;
    for (const side of ["owner", "client"] as const)
      expect(await staleAfter([mine, other], [...invalidationsFor(event, side)])).toEqual([mine]);
  });

  it("refetch with every conversation after a reconnect", async () => {
    expect(await staleAfter([mine, other], [[...queryKeys.allMessages]])).toEqual([mine, other]);
  });

  it("are numbered in their order, from 1", () => {
    const marks = [{ id: "a" }, { id: "b" }, { id: "c" }] as Mark[];
    expect([...numberMarks(marks)]).toEqual([
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ]);
  });

  it("are a point when a press barely moved, else a box between the corners", () => {
    const page = { width: 600, height: 800 };
    const point = draftBetween(3, { x: 0.5, y: 0.5 }, { x: 0.505, y: 0.502 }, page);
    expect(point).toEqual({ page: 3, x: 0.5, y: 0.5, width: 0, height: 0 });
    expect(isPoint(point)).toBe(true);
    const box = draftBetween(1, { x: 0.6, y: 0.7 }, { x: 0.2, y: 0.3 }, page);
    expect(box.x).toBeCloseTo(0.2);
    expect(box.y).toBeCloseTo(0.3);
    expect(box.width).toBeCloseTo(0.4);
    expect(box.height).toBeCloseTo(0.4);
    expect(isPoint(box)).toBe(false);
  });
});
