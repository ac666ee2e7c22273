import { afterEach, describe, expect, it, vi } from "vitest";
import { acceptInvite, inviteLinkIn, resolveShortCode } from "./invite-link";
import { matchPortalRoute } from "./portal-location";

const linkAt = (address: string) => {
  const url = new URL(address, "https://desk.example");
  return inviteLinkIn(matchPortalRoute(url.pathname, url.search));
};

/** A fetch answering every request with `answer` (an Error: no answer), recording the URLs. */
function answering(answer: Response | Error) {
  const urls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      urls.push(url);
      if (answer instanceof Error) throw answer;
      return answer;
    }),
  );
  return urls;
}
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

afterEach(() => vi.unstubAllGlobals());

describe("the invite link in the address", () => {
  it("is the invite token, or the short code when no conversation is named", () => {
    expect(linkAt("/invite/tok%2Den")).toEqual({ token: "tok-en" });
    expect(linkAt("/client?code=AbCd1234")).toEqual({ code: "AbCd1234" });
    expect(linkAt("/client/?code=AbCd1234")).toEqual({ code: "AbCd1234" });
    // An open conversation keeps a stray code from signing anyone in again.
    expect(linkAt("/client/c1?code=AbCd1234")).toBeNull();
    expect(linkAt("/client/c1")).toBeNull();
    expect(linkAt("/client?code=")).toBeNull();
    expect(linkAt("/invite")).toBeNull();
    expect(linkAt("/client/sign-in?token=x")).toBeNull();
  });
});

describe("following an invite", () => {
  it("opens the client's conversation once the server accepted the token", async () => {
    const urls = answering(json({ success: true, clientId: "c 1" }));
    expect(await acceptInvite("a/b")).toEqual({ navigate: "/client/c%201" });
    expect(urls).toEqual(["/api/invite/a%2Fb"]);
  });

  it("tells a used link from a bad one, the owner's own link, someone else signed in, and a failure of ours", async () => {
    const used = { success: false, reason: "used", message: "This invite link was already used." };
    answering(json(used, 410));
    expect(await acceptInvite("t")).toEqual({ refused: { reason: "used" } });
    answering(
      json(
        { success: false, message: "This invite link is invalid or has already been used." },
        404,
      ),
    );
    expect(await acceptInvite("t")).toEqual({ refused: { reason: "invalid" } });
    answering(json({ success: false }));
    expect(await acceptInvite("t")).toEqual({ refused: { reason: "invalid" } });
    answering(json({ message: "This is your own client's invite link." }, 409));
    expect(await acceptInvite("t")).toEqual({
      refused: { reason: "own", message: "This is your own client's invite link." },
    });
    const signedIn = "You are signed in as Bob Baker (bob@example.com).";
    answering(json({ reason: "signed_in", message: signedIn }, 409));
    expect(await acceptInvite("t")).toEqual({
      refused: { reason: "signed_in", message: signedIn },
    });
    answering(json({ message: "Internal error" }, 500));
    expect(await acceptInvite("t")).toEqual({ refused: { reason: "failed" } });
    answering(new TypeError("Failed to fetch"));
    expect(await acceptInvite("t")).toEqual({ refused: { reason: "failed" } });
  });

  it("turns a short code into its invite's address", async () => {
    const urls = answering(json({ inviteToken: "long/token" }));
    expect(await resolveShortCode("AbCd1234")).toEqual({ navigate: "/invite/long%2Ftoken" });
    expect(urls).toEqual(["/api/short-link/AbCd1234"]);
    answering(json({}));
    expect(await resolveShortCode("x")).toEqual({ refused: { reason: "invalid" } });
    answering(json({ message: "Not found" }, 404));
    expect(await resolveShortCode("x")).toEqual({ refused: { reason: "invalid" } });
    answering(json({ success: false, reason: "used", message: "Used" }, 410));
    expect(await resolveShortCode("x")).toEqual({ refused: { reason: "used" } });
    answering(new Response("", { status: 502 }));
    expect(await resolveShortCode("x")).toEqual({ refused: { reason: "failed" } });
  });
});
