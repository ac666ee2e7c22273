import { brandShades } from "../../../shared/contrast";
import { DEFAULT_SHADES } from "../../../shared/defaults";
import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AgentFromIp,
  addClient,
  addJoinedClient,
  freshIp,
  setTier,
} from "../../../tests/support/conversations";
import { type SignedInOwner, signUpOwner } from "../../../tests/support/factories";
import { type TestAgent, type TestServer, startTestServer } from "../../../tests/support/server";
import { TestSocket } from "../../../tests/support/ws-client";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { TRUST_PROXY: "true" } });
});
afterAll(() => server?.close());

const DEFAULTS = {
  branded: false,
  companyName: null,
  companyLogo: null,
  primaryColor: "#0093ff",
  backgroundColor: "#ffffff",
  textColor: "#000000",
  shades: DEFAULT_SHADES,
  language: null,
};

const SCHEME = { primaryColor: "#7a1fa2", backgroundColor: "#fdf6ff", textColor: "#201028" };

const anonymous = () => new AgentFromIp(server.url, freshIp());

async function uploadLogo(agent: TestAgent): Promise<string> {
  const data = await sharp({
    create: { width: 300, height: 80, channels: 4, background: "#7a1fa2" },
  })
    .png()
    .toBuffer();
  const body = new FormData();
  body.append("companyLogo", new Blob([new Uint8Array(data)], { type: "image/png" }), "logo.png");
  const answer = await agent.request("POST", "/api/user/company-logo", { body });
  expect(answer.status).toBe(200);
  return answer.body.user.companyLogo as string;
}

/** An agency owner with a company name, a colour scheme and a logo. */
async function agencyOwner(): Promise<SignedInOwner> {
  const owner = await signUpOwner(server, "Ada Agency");
  await setTier(owner.id, "agency");
  expect(
    (
      await owner.agent.patch("/api/user/profile", {
        fullName: "Ada Agency",
        companyName: "Lumen Studio",
      })
    ).status,
  ).toBe(200);
  expect((await owner.agent.patch("/api/user/color-scheme", SCHEME)).status).toBe(200);
  await uploadLogo(owner.agent);
  return owner;
}

describe("GET /api/portal-branding", () => {
  it("answers an agency owner's name, logo and colours by client id, invite token (live or used) and short code", async () => {
    const owner = await agencyOwner();
    const pending = await addClient(owner, { name: "Pia Pending" });
    const joined = await addJoinedClient(server, owner, { name: "Jon Joined" });
    const code = new URL(
      (await owner.agent.post(`/api/clients/${pending.id}/short-link`)).body.shortUrl,
    ).searchParams.get("code");

    const lookups = [
      `client=${joined.id}`,
      `client=${pending.id}`,
      `invite=${pending.inviteToken}`,
      `invite=${joined.inviteToken}`,
      `code=${code}`,
    ];
    for (const lookup of lookups) {
      const answer = await anonymous().get(`/api/portal-branding?${lookup}`);
      expect(answer.status, lookup).toBe(200);
      expect(answer.body, lookup).toEqual({
        branded: true,
        companyName: "Lumen Studio",
        companyLogo: expect.stringMatching(/^\/api\/portal-branding\/logo\/[0-9a-f]{32}\.png$/),
        ...SCHEME,
        // The readable shades, worked out by the server so the portal needs no contrast code.
        shades: brandShades(SCHEME),
        language: "en",
      });
      // Nothing of the clients or of the owner as a person.
      const text = JSON.stringify(answer.body);
      for (const secret of [
        joined.email,
        pending.email,
        "Jon Joined",
        "Pia Pending",
        "Ada Agency",
        owner.email,
      ]) {
        expect(text, lookup).not.toContain(secret);
      }
    }

    // The logo is served to anyone, as an image, while it is the owner's current logo.
    const { companyLogo } = (await anonymous().get(`/api/portal-branding?client=${joined.id}`))
      .body;
    const logo = await fetch(`${server.url}${companyLogo}`);
    expect(logo.status).toBe(200);
    expect(logo.headers.get("content-type")).toBe("image/png");
    expect(logo.headers.get("x-content-type-options")).toBe("nosniff");
    expect(logo.headers.get("content-security-policy")).toBe(
      "sandbox; default-src 'none'; frame-ancestors 'none'",
    );
    const head = await fetch(`${server.url}${companyLogo}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(logo.headers.get("content-length"));
    const replaced = await uploadLogo(owner.agent);
    expect(replaced).not.toBe(companyLogo);
    expect((await fetch(`${server.url}${companyLogo}`)).status).toBe(404);
  });

  it("answers the defaults, with 200 and the same shape, for anything unknown or malformed", async () => {
    for (const query of [
      `client=${randomUUID()}`,
      "client=not-a-uuid",
      "invite=AAAAAAAAAAAAAAAAAAAAAA",
      "invite=short",
      "code=ZZZZZZZZ",
      "code=0O0O",
      "client=a&client=b",
      "",
    ]) {
      const answer = await anonymous().get(`/api/portal-branding?${query}`);
      expect(answer.status, query).toBe(200);
      expect(answer.body, query).toEqual(DEFAULTS);
    }
  });

  it("does not expose the branding of owners whose plan has none", async () => {
    for (const tier of ["free", "pro"] as const) {
      const owner = await signUpOwner(server, "Fred Free");
      await owner.agent.patch("/api/user/profile", {
        fullName: "Fred Free",
        companyName: "Fred Co",
      });
      // Colours and a logo left from an earlier agency plan stay unseen.
      await setTier(owner.id, "agency");
      await owner.agent.patch("/api/user/color-scheme", SCHEME);
      const logo = await uploadLogo(owner.agent);
      await setTier(owner.id, tier);
      const client = await addJoinedClient(server, owner);
      const answer = await anonymous().get(`/api/portal-branding?client=${client.id}`);
      // Unbranded, but in the conversation's language (issue 29).
      expect(answer.body, tier).toEqual({ ...DEFAULTS, language: "en" });
      const name = logo.replace("/api/download/", "");
      expect((await fetch(`${server.url}/api/portal-branding/logo/${name}`)).status, tier).toBe(
        404,
      );
    }
  });

  it("serves no other stored file as a logo", async () => {
    const owner = await agencyOwner();
    const client = await addJoinedClient(server, owner);
    const body = new FormData();
    const picture = await sharp({
      create: { width: 40, height: 40, channels: 3, background: "#333" },
    })
      .png()
      .toBuffer();
    body.append(
      "profilePicture",
      new Blob([new Uint8Array(picture)], { type: "image/png" }),
      "me.png",
    );
    const me = await owner.agent.request("POST", "/api/user/profile-picture", { body });
    const pictureName = (me.body.user.profilePicture as string).replace("/api/download/", "");
    expect((await fetch(`${server.url}/api/portal-branding/logo/${pictureName}`)).status).toBe(404);
    const file = new FormData();
    file.append("file", new Blob([new Uint8Array(picture)], { type: "image/png" }), "work.png");
    const upload = await owner.agent.request("POST", `/api/clients/${client.id}/upload`, {
      body: file,
    });
    expect(upload.status).toBe(201);
    const fileName = (upload.body.fileUrl as string).replace("/api/download/", "");
    expect((await fetch(`${server.url}/api/portal-branding/logo/${fileName}`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/portal-branding/logo/..%2F..%2Fetc`)).status).toBe(404);
  });
});

describe("branding_updated", () => {
  it("reaches the open portals of the owner's clients when the colours, logo, name or picture change, and no one else's", async () => {
    const owner = await agencyOwner();
    const other = await agencyOwner();
    const mine = await addJoinedClient(server, owner);
    const theirs = await addJoinedClient(server, other);
    const mySocket = await TestSocket.open(server.url, { cookie: mine.agent.cookieHeader });
    const theirSocket = await TestSocket.open(server.url, { cookie: theirs.agent.cookieHeader });
    try {
      const expected = { type: "branding_updated", clientId: mine.id };
      const count = () => mySocket.events.filter((e) => e.type === "branding_updated").length;

      expect(
        (await owner.agent.patch("/api/user/color-scheme", { ...SCHEME, primaryColor: "#005a9e" }))
          .status,
      ).toBe(200);
      expect(await mySocket.waitFor((e) => e.type === "branding_updated")).toEqual(expected);

      await uploadLogo(owner.agent);
      await expect.poll(count).toBe(2);
      await owner.agent.patch("/api/user/profile", {
        fullName: "Ada Agency",
        companyName: "Lumen Works",
      });
      await expect.poll(count).toBe(3);
      const picture = new FormData();
      const png = await sharp({
        create: { width: 40, height: 40, channels: 3, background: "#333" },
      })
        .png()
        .toBuffer();
      picture.append(
        "profilePicture",
        new Blob([new Uint8Array(png)], { type: "image/png" }),
        "me.png",
      );
      expect(
        (await owner.agent.request("POST", "/api/user/profile-picture", { body: picture })).status,
      ).toBe(200);
      await expect.poll(count).toBe(4);

      // The other owner's client hears only its own owner's changes: a message sent to it after
      // all of the above arrives in order, so an event meant for the first client would be in by then.
      const sent = await other.agent.post(`/api/clients/${theirs.id}/messages`, { content: "hi" });
      await theirSocket.waitFor((e) => e.messageId === sent.body.id);
      expect(theirSocket.events.filter((e) => e.type === "branding_updated")).toEqual([]);
    } finally {
      mySocket.close();
      theirSocket.close();
    }
  });
});
