import { beforeAll, describe, expect, it } from "vitest";
import type { PresentPerson } from "../../../shared/realtime-presence";
import { describePresence, listNames } from "./presence-text";
import { startTestLanguage } from "./test-language";

beforeAll(() => startTestLanguage("en"));

const person = (name: string, state: PresentPerson["state"] = "viewing"): PresentPerson => ({
  userId: name,
  name,
  picture: null,
  state,
});

describe("describePresence", () => {
  it("says who views and who types, by first name", () => {
    expect(describePresence([person("Sam Staff")], false)).toEqual({
      typing: null,
      viewing: "Sam is viewing",
      collision: false,
    });
    expect(describePresence([person("Sam Staff", "typing"), person("Alex Admin")], false)).toEqual({
      typing: "Sam is typing…",
      viewing: "Alex is viewing",
      collision: false,
    });
    expect(
      describePresence([person("Sam Staff", "typing"), person("Alex Admin", "typing")], false)
        .typing,
    ).toBe("Sam and Alex are typing…");
  });

  it("warns when a colleague types while the viewer does too", () => {
    expect(describePresence([person("Sam Staff", "typing")], true)).toEqual({
      typing: "Sam is typing a reply too",
      viewing: null,
      collision: true,
    });
    expect(describePresence([person("Sam Staff")], true).collision).toBe(false);
  });

  it("uses full names when two colleagues share a first name", () => {
    expect(describePresence([person("Sam Staff"), person("Sam Smith")], false).viewing).toBe(
      "Sam Staff and Sam Smith are viewing",
    );
  });

  it("shortens long lists", () => {
    expect(listNames(["A", "B", "C"])).toBe("A, B and C");
    expect(listNames(["A", "B", "C", "D"])).toBe("A, B and 2 others");
  });
});
