import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { presentedMessage } from "../../tests/support/message-view";
import {
  batchPayload,
  decodeHubMessage,
  decodeHubPayload,
  encodeHubMessage,
  MAX_PAYLOAD_BYTES,
} from "./wire";

describe("hub wire format", () => {
  it("round-trips events and strips extra fields", () => {
    const event = { type: "new_message" as const, clientId: randomUUID(), messageId: randomUUID() };
    const [payload] = encodeHubMessage({
      kind: "event",
      event: { ...event, extra: 1 } as typeof event,
    });
    expect(JSON.parse(payload!)).toEqual({ kind: "event", event });
    expect(decodeHubMessage(payload!)).toEqual({ kind: "event", event });
    expect(
      decodeHubMessage(JSON.stringify({ kind: "event", event: { ...event, extra: 1 } })),
    ).toEqual({ kind: "event", event });
  });

  it("keeps an internal note's sides, with or without views, and drops malformed sides", () => {
    const event = { type: "new_message" as const, clientId: randomUUID(), messageId: randomUUID() };
    const views = { owner: presentedMessage({ id: event.messageId, content: "Note" }) };
    const sides = ["owner" as const];
    const [withViews] = encodeHubMessage({ kind: "event", event, views, sides });
    expect(decodeHubMessage(withViews!)).toEqual({ kind: "event", event, views, sides });
    // Too long for the views: ids only, still for the owner's side only.
    const long = { owner: presentedMessage({ id: event.messageId, content: "x".repeat(9000) }) };
    const [idsOnly] = encodeHubMessage({ kind: "event", event, views: long, sides });
    expect(decodeHubMessage(idsOnly!)).toEqual({ kind: "event", event, sides });
    for (const wrong of [[], ["client", "client"], ["staff"], "owner"])
      expect(decodeHubMessage(JSON.stringify({ kind: "event", event, sides: wrong }))).toBeNull();
  });

  it("carries presence announcements, checks every field, and never a presence event to both sides", () => {
    const announcement = {
      kind: "presence" as const,
      clientId: randomUUID(),
      connectionId: randomUUID(),
      userId: randomUUID(),
      name: "Sam Staff",
      picture: "/api/download/abc123.png",
      state: "typing" as const,
    };
    const [payload] = encodeHubMessage(announcement);
    expect(decodeHubMessage(payload!)).toEqual(announcement);
    expect(decodeHubMessage(JSON.stringify({ ...announcement, picture: null }))).toEqual({
      ...announcement,
      picture: null,
    });
    for (const wrong of [
      { clientId: "x" },
      { userId: 1 },
      { state: "dancing" },
      { name: "x".repeat(201) },
      { picture: "https://evil.example/a.png" },
    ]) {
      expect(decodeHubMessage(JSON.stringify({ ...announcement, ...wrong }))).toBeNull();
    }
    // Presence goes to the staff only: published as an event, which both sides hear, it is not.
    const asEvent = { type: "presence", clientId: announcement.clientId, people: [] };
    expect(decodeHubMessage(JSON.stringify({ kind: "event", event: asEvent }))).toBeNull();
  });

  it("carries a new message's views when they fit in a payload, and checks them on arrival", () => {
    const event = { type: "new_message" as const, clientId: randomUUID(), messageId: randomUUID() };
    const view = (content: string, senderName = "Olivia Owner") =>
      presentedMessage({ id: event.messageId, content, senderName });
    const views = { owner: view("Hi"), client: view("Hi", "Studio Olivia") };
    const [fits] = encodeHubMessage({ kind: "event", event, views });
    expect(decodeHubMessage(fits!)).toEqual({ kind: "event", event, views });
    // Packed: the message once, and the client's one difference.
    expect(Buffer.byteLength(fits!)).toBeLessThan(
      Buffer.byteLength(JSON.stringify({ kind: "event", event, views })) / 2,
    );
    const ownerOnly = { owner: view("Hi") };
    const [one] = encodeHubMessage({ kind: "event", event, views: ownerOnly });
    expect(decodeHubMessage(one!)).toEqual({ kind: "event", event, views: ownerOnly });
    // Too long for one NOTIFY: the event goes with ids only.
    const long = { owner: view("x".repeat(8_000)), client: view("x".repeat(8_000)) };
    const [cut] = encodeHubMessage({ kind: "event", event, views: long });
    expect(Buffer.byteLength(cut!)).toBeLessThan(MAX_PAYLOAD_BYTES);
    expect(decodeHubMessage(cut!)).toEqual({ kind: "event", event });
    // Views that are not messages are dropped; the event still goes.
    const forged = JSON.stringify({ kind: "event", event, views: { client: { id: 1 } } });
    expect(decodeHubMessage(forged)).toEqual({ kind: "event", event });
  });

  it("splits long disconnect lists below Postgres's payload limit", () => {
    const userIds = Array.from({ length: 250 }, () => randomUUID());
    const payloads = encodeHubMessage({ kind: "disconnect", userIds });
    expect(payloads).toHaveLength(3);
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThan(8000);
    expect(
      payloads.flatMap((payload) => (decodeHubMessage(payload) as { userIds: string[] }).userIds),
    ).toEqual(userIds);
  });

  it("carries a team change to its staff, a hundred a payload, and never as a conversation event", () => {
    const userIds = Array.from({ length: 150 }, () => randomUUID());
    const payloads = encodeHubMessage({ kind: "team_changed", userIds });
    expect(payloads).toHaveLength(2);
    expect(payloads.map((payload) => decodeHubMessage(payload))).toEqual([
      { kind: "team_changed", userIds: userIds.slice(0, 100) },
      { kind: "team_changed", userIds: userIds.slice(100) },
    ]);
    for (const bad of [[], ["x"], randomUUID()]) {
      expect(decodeHubMessage(JSON.stringify({ kind: "team_changed", userIds: bad }))).toBeNull();
    }
    // Sent as an event it would go to a conversation's two sides: dropped.
    expect(
      decodeHubMessage(JSON.stringify({ kind: "event", event: { type: "team_changed" } })),
    ).toBeNull();
  });

  it("round-trips a signed-out session and refuses anything but a SHA-256 hex", () => {
    const sessionHash = "ab".repeat(32);
    const [payload] = encodeHubMessage({ kind: "session_ended", sessionHash });
    expect(decodeHubMessage(payload!)).toEqual({ kind: "session_ended", sessionHash });
    for (const bad of ["", "x".repeat(64), "ab".repeat(31), 42]) {
      expect(
        decodeHubMessage(JSON.stringify({ kind: "session_ended", sessionHash: bad })),
      ).toBeNull();
    }
  });

  it("carries an ended session's delay (whole ms up to a minute), and closes at once otherwise", () => {
    const sessionHash = "cd".repeat(32);
    const [payload] = encodeHubMessage({ kind: "session_ended", sessionHash, afterMs: 5_000 });
    expect(decodeHubMessage(payload!)).toEqual({
      kind: "session_ended",
      sessionHash,
      afterMs: 5_000,
    });
    for (const afterMs of [0, -1, 1.5, 60_001, "5000", null]) {
      expect(
        decodeHubMessage(JSON.stringify({ kind: "session_ended", sessionHash, afterMs })),
      ).toEqual({ kind: "session_ended", sessionHash });
    }
  });

  it("never transmits a local resync", () => {
    expect(encodeHubMessage({ kind: "resync" })).toEqual([]);
    expect(decodeHubMessage(JSON.stringify({ kind: "resync" }))).toBeNull();
  });

  it("refuses malformed payloads", () => {
    const id = randomUUID();
    for (const payload of [
      "",
      "garbage",
      "null",
      "[]",
      JSON.stringify({ kind: "event" }),
      JSON.stringify({ kind: "event", event: { type: "other", clientId: id, messageId: id } }),
      JSON.stringify({
        kind: "event",
        event: { type: "new_message", clientId: "1 or 1=1", messageId: id },
      }),
      JSON.stringify({ kind: "event", event: { type: "new_message", clientId: id, messageId: 5 } }),
      JSON.stringify({ kind: "disconnect", userIds: [] }),
      JSON.stringify({ kind: "disconnect", userIds: ["x"] }),
      JSON.stringify({ kind: "disconnect", userIds: id }),
    ]) {
      expect(decodeHubMessage(payload)).toBeNull();
    }
  });
});

describe("batched payloads", () => {
  const event = () => ({
    kind: "event" as const,
    event: { type: "new_message" as const, clientId: randomUUID(), messageId: randomUUID() },
  });

  it("packs queued messages into payloads under the limit, in order", () => {
    const messages = Array.from({ length: 300 }, event);
    const queue = messages.flatMap(encodeHubMessage);
    const decoded = [];
    while (queue.length > 0) {
      const { payload, count } = batchPayload(queue);
      expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
      expect(count).toBeGreaterThan(0);
      queue.splice(0, count);
      const result = decodeHubPayload(payload);
      expect(result?.dropped).toBe(0);
      decoded.push(...(result?.messages ?? []));
    }
    expect(decoded).toEqual(messages);
  });

  it("keeps the valid messages of a payload and counts the rest", () => {
    const good = event();
    const result = decodeHubPayload(JSON.stringify([good, { kind: "event" }, "x", null]));
    expect(result).toEqual({ messages: [good], dropped: 3 });
    expect(decodeHubPayload(JSON.stringify(good))).toEqual({ messages: [good], dropped: 0 });
    expect(decodeHubPayload("not json")).toBeNull();
  });
});
