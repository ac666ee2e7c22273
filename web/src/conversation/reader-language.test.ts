import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatFileSize } from "./file-size";
import { formatDay, formatTime } from "./format-time";
import { describePresence } from "./presence-text";
import { formatWhen, quickChoices, sendAtProblem } from "./send-later-times";
import { startTestLanguage } from "./test-language";
import { formatZoom } from "./zoom-steps";

const person = (name: string, state: "viewing" | "typing" = "viewing") => ({
  userId: name,
  name,
  picture: null,
  state,
});

// Issue 29: the conversation's dates, numbers and words follow the reader's language.
describe("a German reader", () => {
  beforeAll(() => startTestLanguage("de"));
  afterAll(() => startTestLanguage("en"));

  it("reads days, times and scheduled times in German", () => {
    const now = new Date(2026, 11, 2, 15, 0);
    expect(formatDay(new Date(2026, 11, 2, 9, 0).toISOString(), now)).toBe("Heute");
    expect(formatDay(new Date(2026, 11, 1, 9, 0).toISOString(), now)).toBe("Gestern");
    expect(formatDay(new Date(2026, 10, 30, 9, 0).toISOString(), now)).toBe("Montag");
    expect(formatTime(new Date(2026, 11, 2, 14, 5).toISOString())).toBe("14:05");
    expect(formatWhen(new Date(2026, 11, 1, 9, 0))).toMatch(/^Di\., 1\. Dez\., 0?9:00$/);
    expect(quickChoices(now)[0]!.label).toBe("Morgen, 9:00");
    expect(sendAtProblem(undefined, now)).toBe("Wählen Sie ein Datum und eine Uhrzeit");
  });

  it("reads numbers and plurals in German", () => {
    expect(formatFileSize(1536)).toBe("1,5 KB");
    expect(formatZoom(0.6666)).toMatch(/^67\s%$/u);
    expect(describePresence([person("Sam Staff")], false).viewing).toBe("Sam liest mit");
    expect(describePresence([person("Sam"), person("Alex")], false).viewing).toBe(
      "Sam und Alex lesen mit",
    );
  });

  it("reads English again once the language changes back", async () => {
    await startTestLanguage("en");
    const now = new Date(2026, 11, 2, 15, 0);
    expect(formatDay(now.toISOString(), now)).toBe("Today");
    expect(formatFileSize(1536)).toBe("1.5 KB");
    expect(formatTime(new Date(2026, 11, 2, 14, 5).toISOString())).toBe("2:05 PM");
    await startTestLanguage("de");
  });
});
