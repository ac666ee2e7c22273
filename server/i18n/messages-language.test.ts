import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addClient } from "../../tests/support/conversations";
import { signUpOwner, uniqueEmail } from "../../tests/support/factories";
import { type TestServer, startTestServer } from "../../tests/support/server";

/**
 * Issue 29: every {message} in its reader's language: the signed-in person's own language,
 * else what the browser asks for (Accept-Language), else the spec's English.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const german = { "Accept-Language": "de" };
const tooLong = "x".repeat(10_001);

describe("a {message} in the language the browser asks for", () => {
  it("answers a validation error and a 404 in German", async () => {
    const agent = server.agent();
    const invalid = await agent.post(
      "/api/register",
      {
        email: uniqueEmail(),
        password: "secret123",
        fullName: "  ",
        role: "owner",
        accountTier: "free",
      },
      german,
    );
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toBe("Der vollständige Name ist erforderlich");

    const missing = await agent.get("/api/no-such-thing", german);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe("Nicht gefunden");
  });

  it("picks French from fr-CA,fr;q=0.9", async () => {
    const refused = await server
      .agent()
      .post(
        "/api/login",
        { username: uniqueEmail(), password: "not the password" },
        { "Accept-Language": "fr-CA,fr;q=0.9" },
      );
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe("Adresse e-mail ou mot de passe incorrect");
  });

  it("keeps the spec's exact English without an Accept-Language header", async () => {
    const agent = server.agent();
    const refused = await agent.post("/api/login", {
      username: uniqueEmail(),
      password: "not the password",
    });
    expect(refused.body.message).toBe("Invalid email or password");
    const missing = await agent.get("/api/no-such-thing");
    expect(missing.body.message).toBe("Not found");
  });

  it("fills in values and writes numbers as the reader does", async () => {
    const owner = await signUpOwner(server);
    const client = await addClient(owner);
    const sent = await owner.agent.post(
      `/api/clients/${client.id}/messages`,
      { content: tooLong },
      german,
    );
    expect(sent.status).toBe(400);
    expect(sent.body.message).toBe("Nachrichten sind auf 10.000 Zeichen begrenzt");

    const english = await owner.agent.post(`/api/clients/${client.id}/messages`, {
      content: tooLong,
    });
    expect(english.body.message).toBe("Messages are limited to 10,000 characters");

    const unknown = await owner.agent.patch(
      "/api/user/profile",
      { fullName: "Olivia Owner", favouriteColour: "teal" },
      german,
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe("Unbekanntes Feld: favouriteColour");

    const method = await owner.agent.delete("/api/user/profile", { "Accept-Language": "es" });
    expect(method.status).toBe(405);
    expect(method.body.message).toBe("DELETE no está permitido aquí");
  });
});

describe("a signed-in person's own language", () => {
  it("wins over what the browser asks for", async () => {
    const owner = await signUpOwner(server);
    await server.db("users").where({ id: owner.id }).update({ language: "es" });
    // A fresh session reads the person as they are now.
    const agent = server.agent();
    const signedIn = await agent.post("/api/login", {
      username: owner.email,
      password: owner.password,
    });
    expect(signedIn.status).toBe(200);

    const invalid = await agent.patch("/api/user/profile", { fullName: "" }, german);
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toBe("El nombre completo es obligatorio");

    const saved = await agent.patch("/api/user/profile", { fullName: "Olivia Owner" }, german);
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe("Perfil actualizado correctamente");
  });
});

/** A websocket upgrade from another site: the refusal's status and {message}. */
function refusedUpgrade(headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const upgrade = request(new URL("/ws", server.origin), {
      headers: {
        Connection: "Upgrade",
        Upgrade: "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        Origin: "http://elsewhere.example",
        ...headers,
      },
    });
    upgrade.on("response", (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => {
        text += chunk;
      });
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }),
      );
    });
    upgrade.on("upgrade", () => reject(new Error("the upgrade was accepted")));
    upgrade.on("error", reject);
    upgrade.end();
  });
}

describe("a refused live connection", () => {
  it("says why in the language the browser asks for", async () => {
    expect(await refusedUpgrade({ "Accept-Language": "de" })).toEqual({
      status: 403,
      body: { message: "Websiteübergreifende Verbindung abgelehnt" },
    });
    expect(await refusedUpgrade({})).toEqual({
      status: 403,
      body: { message: "Cross-site connection refused" },
    });
  });
});
