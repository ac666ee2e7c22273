import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentFromIp, freshIp } from "../../../tests/support/conversations";
import { signUpOwner } from "../../../tests/support/factories";
import { type TestAgent, type TestServer, startTestServer } from "../../../tests/support/server";

// Ten wrong passwords lock an account for 15 minutes, but only for browsers that have never
// signed in to it: the owner's own browser carries a signed device cookie and is counted on its
// own, so a stranger elsewhere cannot lock the owner out.

let server: TestServer;
beforeAll(async () => {
  // Strangers come from addresses of their own (X-Forwarded-For): the per-IP limit is not
  // what this is about.
  server = await startTestServer({ env: { TRUST_PROXY: "true" } });
});
afterAll(() => server?.close());

const browserElsewhere = () => new AgentFromIp(server.url, freshIp());

const login = (agent: TestAgent, username: string, password: string) =>
  agent.post("/api/login", { username, password });

/** An owner whose browser has signed in with the password (and so holds a device cookie). */
async function ownerWithDevice() {
  const owner = await signUpOwner(server);
  const browser = browserElsewhere();
  const signedIn = await login(browser, owner.email, owner.password);
  expect(signedIn.status).toBe(200);
  const device = signedIn.headers.getSetCookie().find((line) => line.startsWith("device="));
  expect(device).toBeDefined();
  return {
    ...owner,
    browser,
    deviceCookie: (device ?? "").split(";")[0] as string,
    setCookie: device ?? "",
  };
}

async function lockOutStrangers(email: string) {
  for (let i = 0; i < 10; i += 1) {
    expect((await login(browserElsewhere(), email, "wrong-guess")).status).toBe(401);
  }
  const stranger = await login(browserElsewhere(), email, "wrong-guess");
  expect(stranger.status).toBe(429);
}

describe("device cookies and the sign-in lockout", () => {
  it("sets a long-lived, HttpOnly, SameSite=Lax device cookie for the sign-in path", async () => {
    const { setCookie } = await ownerWithDevice();
    expect(setCookie).toMatch(/httponly/i);
    expect(setCookie).toMatch(/samesite=lax/i);
    expect(setCookie).toMatch(/path=\/api\/login/i);
    expect(setCookie).not.toMatch(/secure/i);
    const expires = new Date(/expires=([^;]+)/i.exec(setCookie)?.[1] ?? "");
    const days = (expires.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThan(367);
  });

  it("locks the account for strangers after ten wrong passwords, but not the owner's browser", async () => {
    const owner = await ownerWithDevice();
    await lockOutStrangers(owner.email);
    // Even with the right password, a browser that never signed in is refused.
    const stranger = await login(browserElsewhere(), owner.email, owner.password);
    expect(stranger.status).toBe(429);
    expect(stranger.body.message).toMatch(/Too many attempts/);

    const back = await login(owner.browser, owner.email, owner.password);
    expect(back.status).toBe(200);
    expect(back.body.email).toBe(owner.email);
    // The owner signing in does not unlock the account for the strangers.
    expect((await login(browserElsewhere(), owner.email, owner.password)).status).toBe(429);
  });

  it("gives no exemption to a forged device cookie or another account's", async () => {
    const owner = await ownerWithDevice();
    const other = await ownerWithDevice();
    await lockOutStrangers(owner.email);
    const [, value] = owner.deviceCookie.split("=");
    const [nonce] = (value ?? "").split(".");
    for (const cookie of [
      other.deviceCookie,
      `device=${nonce}.${"A".repeat(43)}`,
      `device=${nonce}`,
      "device=garbage",
    ]) {
      const attempt = await browserElsewhere().post(
        "/api/login",
        { username: owner.email, password: owner.password },
        { cookie },
      );
      expect(attempt.status, cookie).toBe(429);
    }
    // The other owner's browser still signs in to its own account.
    expect((await login(other.browser, other.email, other.password)).status).toBe(200);
  });

  it("limits the owner's browser on its own after ten wrong passwords", async () => {
    const owner = await ownerWithDevice();
    for (let i = 0; i < 10; i += 1) {
      expect((await login(owner.browser, owner.email, "wrong-guess")).status).toBe(401);
    }
    const device = await login(owner.browser, owner.email, owner.password);
    expect(device.status).toBe(429);
    expect(device.body.message).toMatch(/Too many attempts/);
    // Its failures were not the account's: another browser is not locked out by them.
    expect((await login(browserElsewhere(), owner.email, owner.password)).status).toBe(200);
  });

  it("gives the browser a device cookie when it verifies its address", async () => {
    const owner = await signUpOwner(server);
    // signUpOwner signed this browser in through the mailed code.
    expect(owner.agent.cookieHeader).toMatch(/(^|; )device=/);
    await lockOutStrangers(owner.email);
    expect((await login(owner.agent, owner.email, owner.password)).status).toBe(200);
  });
});

describe("device cookie over https", () => {
  it("is Secure when APP_URL is https", async () => {
    const appUrl = "https://app.example.test";
    const secure = await startTestServer({ env: { APP_URL: appUrl, TRUST_PROXY: "true" } });
    try {
      const headers = { origin: appUrl, "x-forwarded-proto": "https" };
      // Signed up by hand: behind the proxy, every call says it came over https.
      const email = `secure-${Date.now()}@example.test`;
      const agent = secure.agent();
      const registered = await agent.post(
        "/api/register",
        {
          email,
          password: "secret123",
          fullName: "Sam Secure",
          role: "owner",
          accountTier: "free",
        },
        headers,
      );
      expect(registered.status).toBe(201);
      const code = /\b(\d{6})\b/.exec((await secure.smtp.waitFor(email)).text)?.[1];
      expect((await agent.post("/api/verify-email", { email, code }, headers)).status).toBe(200);
      const signedIn = await agent.post(
        "/api/login",
        { username: email, password: "secret123" },
        headers,
      );
      expect(signedIn.status).toBe(200);
      const device = signedIn.headers.getSetCookie().find((line) => line.startsWith("device="));
      expect(device).toMatch(/;\s*secure/i);
    } finally {
      await secure.close();
    }
  });
});
