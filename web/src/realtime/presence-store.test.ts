import { describe, expect, it } from "vitest";
import { PresenceStore } from "./presence-store";

function store() {
  let now = 0;
  const sent: unknown[] = [];
  const presence = new PresenceStore(() => now);
  presence.connected((data) => {
    sent.push(JSON.parse(data));
    return true;
  });
  return {
    presence,
    sent,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const frame = (clientId: string, state: string) => ({ type: "presence", clientId, state });

describe("PresenceStore", () => {
  it("says viewing once, typing at most every 3 s, and idle only for the conversation it is in", () => {
    const { presence, sent, advance } = store();
    presence.report("a", "viewing");
    presence.report("a", "viewing");
    presence.report("a", "typing");
    advance(1_000);
    presence.report("a", "typing");
    advance(2_000);
    presence.report("a", "typing");
    presence.report("b", "idle");
    presence.report("a", "idle");
    expect(sent).toEqual([
      frame("a", "viewing"),
      frame("a", "typing"),
      frame("a", "typing"),
      frame("a", "idle"),
    ]);
  });

  it("tells a new socket where the page is, and forgets the old socket's lists", () => {
    const { presence } = store();
    presence.report("a", "typing");
    presence.receive({
      type: "presence",
      clientId: "a",
      people: [{ userId: "u", name: "Sam Staff", picture: null, state: "viewing" }],
    });
    expect(presence.people("a")).toHaveLength(1);
    presence.disconnected();
    expect(presence.people("a")).toEqual([]);
    const again: unknown[] = [];
    presence.connected((data) => {
      again.push(JSON.parse(data));
      return true;
    });
    expect(again).toEqual([frame("a", "typing")]);
  });
});
