import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { queryKeys } from "./query-keys";

/** A cache holding one (fresh) entry under each of `keys`. */
function cacheWith(keys: readonly (readonly unknown[])[]) {
  const queryClient = new QueryClient();
  for (const key of keys) queryClient.setQueryData(key, "loaded");
  return queryClient;
}

/** The keys an invalidation of `key` marks stale, as the cache answers it. */
async function invalidatedBy(queryClient: QueryClient, key: readonly unknown[]) {
  await queryClient.invalidateQueries({ queryKey: key, refetchType: "none" });
  const stale = queryClient
    .getQueryCache()
    .getAll()
    .filter((query) => query.state.isInvalidated)
    .map((query) => query.queryKey);
  queryClient.clear();
  return stale;
}

const everyKey = [
  queryKeys.user,
  queryKeys.accountTier,
  queryKeys.subscriptionStatus,
  queryKeys.googleAvailable,
  queryKeys.billingMode,
  queryKeys.clients,
  queryKeys.client("c1"),
  queryKeys.client("c2"),
  queryKeys.messages("c1"),
  queryKeys.messages("c2"),
  queryKeys.attachments("c1"),
  queryKeys.attachments("c2"),
  queryKeys.versions("c1", "m1"),
  queryKeys.versions("c2", "m2"),
  queryKeys.portalBranding("client=c1"),
  queryKeys.search("invoice"),
  queryKeys.search("invoice", "c1"),
  queryKeys.search("the", "c1"),
];

describe("query keys", () => {
  it("name every query differently", () => {
    const spelled = everyKey.map((key) => JSON.stringify(key));
    expect(new Set(spelled).size).toBe(everyKey.length);
  });

  it("refresh a conversation's messages together with its files' versions, and nothing else", async () => {
    expect(await invalidatedBy(cacheWith(everyKey), queryKeys.messages("c1"))).toEqual([
      queryKeys.messages("c1"),
      queryKeys.versions("c1", "m1"),
    ]);
  });

  it("refresh every conversation's messages and versions at once after a reconnect", async () => {
    expect(await invalidatedBy(cacheWith(everyKey), queryKeys.allMessages)).toEqual([
      queryKeys.messages("c1"),
      queryKeys.messages("c2"),
      queryKeys.versions("c1", "m1"),
      queryKeys.versions("c2", "m2"),
    ]);
  });

  it("refresh each client's own page with the owner's client list", async () => {
    expect(await invalidatedBy(cacheWith(everyKey), queryKeys.clients)).toEqual([
      queryKeys.clients,
      queryKeys.client("c1"),
      queryKeys.client("c2"),
    ]);
  });

  it("keep one conversation's attachments apart from another's", async () => {
    expect(await invalidatedBy(cacheWith(everyKey), queryKeys.attachments("c1"))).toEqual([
      queryKeys.attachments("c1"),
    ]);
    expect(await invalidatedBy(cacheWith(everyKey), queryKeys.user)).toEqual([queryKeys.user]);
  });

  it("keep searches by their words and scope, and drop them all at once", async () => {
    expect(await invalidatedBy(cacheWith(everyKey), queryKeys.search("invoice", "c1"))).toEqual([
      queryKeys.search("invoice", "c1"),
    ]);
    expect(await invalidatedBy(cacheWith(everyKey), queryKeys.allSearches)).toEqual([
      queryKeys.search("invoice"),
      queryKeys.search("invoice", "c1"),
      queryKeys.search("the", "c1"),
    ]);
  });
});
