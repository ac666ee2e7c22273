import { describe, expect, it } from "vitest";
import { chooseUpdateFeed } from "./update-feed";

describe("update feed", () => {
  it("takes CLIENTDESK_UPDATE_URL only when unpackaged: https, or http on this machine", () => {
    const url = (feedUrl: string) =>
      chooseUpdateFeed({ feedUrl, isPackaged: false, hasAppUpdateConfig: true });
    expect(url("https://updates.example.com/clientdesk")).toEqual({
      source: "url",
      url: "https://updates.example.com/clientdesk",
    });
    expect(url("http://127.0.0.1:8080/feed")).toEqual({
      source: "url",
      url: "http://127.0.0.1:8080/feed",
    });
    expect(url("http://localhost:8080").source).toBe("url");
    expect(url("http://updates.example.com")).toMatchObject({
      source: "none",
      reason: expect.stringMatching(/must use https/),
    });
    expect(url("not a url")).toMatchObject({ reason: /not a URL/ });
    expect(url("ftp://updates.example.com")).toMatchObject({ source: "none" });
    expect(url("https://user:pw@updates.example.com")).toMatchObject({
      reason: /user name or password/,
    });
  });

  it("ignores CLIENTDESK_UPDATE_URL in a packaged app: the feed is the app-update.yml built in", () => {
    for (const feedUrl of ["https://evil.example/feed", "http://127.0.0.1:8080/feed"]) {
      expect(chooseUpdateFeed({ feedUrl, isPackaged: true, hasAppUpdateConfig: true })).toEqual({
        source: "app-update.yml",
      });
      expect(chooseUpdateFeed({ feedUrl, isPackaged: true, hasAppUpdateConfig: false })).toEqual({
        source: "none",
        reason: "the app has no app-update.yml",
      });
    }
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
