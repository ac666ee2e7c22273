import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { User } from "../../models";
import { translateMessage } from "../../i18n/translator";
import { addClient, addJoinedClient, setTier } from "../../../tests/support/conversations";
import { signUpOwner, uniqueEmail } from "../../../tests/support/factories";
import { type TestServer, startTestServer } from "../../../tests/support/server";
import { codeFrom } from "../../../tests/support/smtp";
import { addStaff } from "../../../tests/support/team";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const GERMAN_BROWSER = { "accept-language": "de-DE,de;q=0.9,en;q=0.5" };

describe("a person's own language (PATCH /api/user/language)", () => {
  it("is stored for staff, answered as {language}, and read at once by the next request", async () => {
    const owner = await signUpOwner(server);
    const before = await owner.agent.get("/api/user");
    expect(before.body).toMatchObject({ language: "en", languageChosen: false });
    // No pick yet: the staff's browser decides.
    expect((await owner.agent.get("/api/user", GERMAN_BROWSER)).body.language).toBe("de");

    const changed = await owner.agent.patch("/api/user/language", { language: "fr" });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ language: "fr" });
    expect((await User.query().findById(owner.id))?.language).toBe("fr");
    // The session cache holds the user: the very next request reads the pick.
    const after = await owner.agent.get("/api/user", GERMAN_BROWSER);
    expect(after.body).toMatchObject({ language: "fr", languageChosen: true });
    const dashboard = await owner.agent.get("/api/dashboard");
    expect(dashboard.body.user).toMatchObject({ language: "fr", languageChosen: true });
  });

  it("answers 400 with a clear message for anything but a supported language, 401 signed out", async () => {
    const owner = await signUpOwner(server);
    for (const body of [{ language: "it" }, { language: null }, {}, { language: "de", x: 1 }]) {
      const refused = await owner.agent.patch("/api/user/language", body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.message, JSON.stringify(body)).toEqual(expect.any(String));
    }
    const unsupported = await owner.agent.patch("/api/user/language", { language: "it" });
    expect(unsupported.body.message).toBe("Language must be one of en, de, fr, es, pt-BR");
    expect((await User.query().findById(owner.id))?.language).toBeNull();

    const anonymous = await server.agent().patch("/api/user/language", { language: "de" });
    expect(anonymous.status).toBe(401);
  });
});

describe("a contact's language", () => {
  it("follows their client's, else the workspace's, until they pick one; so does each {message}", async () => {
    const owner = await signUpOwner(server);
    await setTier(owner.id, "pro");
    const client = await addJoinedClient(server, owner);
    const me = () => client.agent.get("/api/user", GERMAN_BROWSER);
    // Neither set: the workspace's English, whatever the contact's browser asks for.
    expect((await me()).body).toMatchObject({ language: "en", languageChosen: false });

    expect((await owner.agent.patch("/api/workspace/language", { language: "es" })).body).toEqual({
      language: "es",
    });
    expect((await me()).body.language).toBe("es");

    const set = await owner.agent.patch(`/api/clients/${client.id}/language`, { language: "fr" });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ language: "fr" });
    expect((await me()).body.language).toBe("fr");
    const portal = await client.agent.get(`/api/portal/${client.id}`);
    expect(portal.body.user).toMatchObject({ language: "fr", languageChosen: false });
    expect(portal.body.client.language).toBe("fr");

    // A {message} the contact reads is written in that language.
    const refused = await client.agent.get(`/api/clients/${owner.id}`, GERMAN_BROWSER);
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe(translateMessage("fr", "Client not found"));

    // Their own pick wins over the client's.
    expect((await client.agent.patch("/api/user/language", { language: "pt-BR" })).status).toBe(
      200,
    );
    expect((await me()).body).toMatchObject({ language: "pt-BR", languageChosen: true });
    const again = await client.agent.get(`/api/clients/${owner.id}`);
    expect(again.body.message).toBe(translateMessage("pt-BR", "Client not found"));

    // Back to the workspace's: null.
    await owner.agent.patch(`/api/clients/${client.id}/language`, { language: null });
    expect((await owner.agent.get(`/api/clients/${client.id}`)).body.language).toBeNull();
  });
});

describe("a client's invite language", () => {
  it("is set when adding the client, listed with it, and named by the invite page's data", async () => {
    const owner = await signUpOwner(server);
    const added = await addClient(owner, { language: "de" });
    expect((await owner.agent.get(`/api/clients/${added.id}`)).body.language).toBe("de");
    const branding = await server.agent().get(`/api/portal-branding?invite=${added.inviteToken}`);
    expect(branding.body.language).toBe("de");

    const refused = await owner.agent.post("/api/clients", {
      name: "Ivo Italiano",
      email: uniqueEmail("client"),
      language: "it",
    });
    expect(refused.status).toBe(400);
  });

  it("follows the workspace's when not set (the invite page too)", async () => {
    const owner = await signUpOwner(server);
    await owner.agent.patch("/api/workspace/language", { language: "pt-BR" });
    const added = await addClient(owner);
    expect((await owner.agent.get(`/api/clients/${added.id}`)).body.language).toBeNull();
    const branding = await server.agent().get(`/api/portal-branding?invite=${added.inviteToken}`);
    expect(branding.body.language).toBe("pt-BR");
  });

  it("is the staff's to set: not the contact's (403), not another workspace's (404)", async () => {
    const owner = await signUpOwner(server);
    const client = await addJoinedClient(server, owner);
    const byContact = await client.agent.patch(`/api/clients/${client.id}/language`, {
      language: "de",
    });
    expect(byContact.status).toBe(403);

    const stranger = await signUpOwner(server, "Stella Stranger");
    const byStranger = await stranger.agent.patch(`/api/clients/${client.id}/language`, {
      language: "de",
    });
    expect(byStranger.status).toBe(404);
    expect((await owner.agent.get(`/api/clients/${client.id}`)).body.language).toBeNull();
  });
});

describe("the workspace's language (GET and PATCH /api/workspace/language)", () => {
  it("is its owner's and admins' to set; members read it; contacts neither", async () => {
    const owner = await signUpOwner(server);
    await setTier(owner.id, "agency");
    const admin = await addStaff(server, owner, "admin");
    const member = await addStaff(server, owner, "member");
    const client = await addJoinedClient(server, owner);

    expect((await owner.agent.get("/api/workspace/language")).body).toEqual({ language: "en" });
    expect((await admin.agent.patch("/api/workspace/language", { language: "de" })).status).toBe(
      200,
    );
    expect((await member.agent.get("/api/workspace/language")).body).toEqual({ language: "de" });
    expect((await member.agent.patch("/api/workspace/language", { language: "fr" })).status).toBe(
      403,
    );
    expect((await client.agent.patch("/api/workspace/language", { language: "fr" })).status).toBe(
      403,
    );
    expect((await client.agent.get("/api/workspace/language")).status).toBe(403);
    expect((await owner.agent.patch("/api/workspace/language", { language: "xx" })).status).toBe(
      400,
    );
    expect((await owner.agent.get("/api/workspace/language")).body).toEqual({ language: "de" });
    // A member with no pick and a browser asking for nothing supported reads the workspace's.
    expect((await member.agent.get("/api/user")).body.language).toBe("de");
    expect((await server.agent().get("/api/workspace/language")).status).toBe(401);
  });

  it("starts as the owner's browser's at sign-up (a supported one, else English)", async () => {
    for (const [header, expected] of [
      ["de-AT,de;q=0.9,en;q=0.8", "de"],
      ["it-IT,it;q=0.9", "en"],
    ] as const) {
      const agent = server.agent();
      const email = uniqueEmail("owner");
      const headers = { "accept-language": header };
      const registered = await agent.post(
        "/api/register",
        {
          email,
          password: "correct horse battery",
          fullName: "Wanda Welt",
          role: "owner",
          accountTier: "free",
        },
        headers,
      );
      expect(registered.status).toBe(201);
      const code = codeFrom(await server.smtp.waitFor(email));
      expect((await agent.post("/api/verify-email", { email, code })).status).toBe(200);
      expect((await agent.get("/api/workspace/language")).body, header).toEqual({
        language: expected,
      });
    }
  });
});
