import { describe, expect, it } from "vitest";
import { chooseUpdateFeed } from "./update-feed";

describe("update feed", () => {
  it("takes CLIENTDESK_UPDATE_URL: https always, http on this machine only when unpackaged", () => {
    const url = (feedUrl: string, isPackaged: boolean) =>
      chooseUpdateFeed({ feedUrl, isPackaged, hasAppUpdateConfig: true });
    expect(url("https://updates.example.com/clientdesk", true)).toEqual({
      source: "url",
      url: "https://updates.example.com/clientdesk",
    });
    expect(url("http://127.0.0.1:8080/feed", false)).toEqual({
      source: "url",
      url: "http://127.0.0.1:8080/feed",
    });
    expect(url("http://localhost:8080", false).source).toBe("url");
    expect(url("http://127.0.0.1:8080/feed", true)).toEqual({
      source: "none",
      reason: "CLIENTDESK_UPDATE_URL must use https://",
    });
    expect(url("http://updates.example.com", false)).toMatchObject({
      source: "none",
      reason: expect.stringMatching(/must use https/),
    });
    expect(url("not a url", true)).toMatchObject({ reason: /not a URL/ });
    expect(url("ftp://updates.example.com", true)).toMatchObject({ source: "none" });
    expect(url("https://user:pw@updates.example.com", true)).toMatchObject({
      reason: /user name or password/,
    });
  });

  it("reads app-update.yml in a packaged app without an address", () => {
    expect(
      chooseUpdateFeed({ feedUrl: undefined, isPackaged: true, hasAppUpdateConfig: true }),
    ).toEqual({ source: "app-update.yml" });
    expect(chooseUpdateFeed({ feedUrl: "", isPackaged: true, hasAppUpdateConfig: false })).toEqual({
      source: "none",
      reason: "the app has no app-update.yml",
    });
  });

  it("is off in an unpackaged app without an address", () => {
    expect(
      chooseUpdateFeed({ feedUrl: undefined, isPackaged: false, hasAppUpdateConfig: true }),
    ).toEqual({ source: "none", reason: "not packaged and no CLIENTDESK_UPDATE_URL" });
  });
});
