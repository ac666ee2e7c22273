import { existsSync, readFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { type MutableToken, OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { uniqueEmail } from "../../tests/support/factories";
import { type TestServer, startTestServer } from "../../tests/support/server";
import { IpcChannels } from "../common/ipc-channels";
import { createFakeElectron, FakeSafeStorage, type FakeSession } from "../test/fake-electron";
import { createSystemBrowser } from "../test/system-browser";
import { createGoogleSignIn, type GoogleSignInResult } from "./google-sign-in";

// index.ts imports the real module only to start itself inside Electron; never here.
vi.mock("electron", () => ({}));

const { SESSION_PARTITION, startDesktopApp } = await import("./index");

let oauth: OAuth2Server;
let server: TestServer;
let tokenClaims: Record<string, unknown> = {};

beforeAll(async () => {
  oauth = new OAuth2Server();
  await oauth.issuer.keys.generate("RS256");
  await oauth.start(0, "127.0.0.1");
  oauth.service.on("beforeTokenSigning", (token: MutableToken) => {
    Object.assign(token.payload, tokenClaims);
  });
  server = await startTestServer({
    env: {
      GOOGLE_CLIENT_ID: "clientdesk-test.apps.googleusercontent.com",
      GOOGLE_CLIENT_SECRET: "test-google-client-secret",
      GOOGLE_ISSUER: oauth.issuer.url!,
    },
  });
});
afterAll(async () => {
  await server?.close();
  await oauth?.stop();
});

function googleAccount(overrides: Record<string, unknown> = {}) {
  return {
    sub: `google-${randomUUID()}`,
    email: uniqueEmail("desktop-google"),
    email_verified: true,
    name: "Dora Desktop",
    ...overrides,
  };
}

/**
 * The app session's fetch as Chromium's would behave towards the server: real HTTP, the
 * jar's `sid` sent, and the server's Set-Cookie for `sid` put into the jar.
 */
function fetchThroughJar(session: FakeSession) {
  session.fetchImpl = async (input, init) => {
    const headers = new Headers(init.headers);
    const sid = session.cookies.jar.get("sid");
    if (sid) headers.set("cookie", `sid=${sid.value}`);
    const response = await fetch(input, { ...init, headers, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [name, value] = (line.split(";")[0] ?? "").split("=");
      if (name === "sid" && value) session.cookies.serverSets("sid", value, "127.0.0.1");
    }
    return response;
  };
}

/** `press`: the button the user presses on the server's "Sign in to the ClientDesk app?" page. */
async function startApp(press: "Continue" | "Cancel" = "Continue") {
  const fake = createFakeElectron();
  const logs: string[] = [];
  const running = startDesktopApp(fake.electron, {
    env: { CLIENTDESK_SERVER_URL: server.url },
    platform: "linux",
    mainDir: "/opt/clientdesk/out/main",
    resourcesPath: "/opt/clientdesk/resources",
    log: (message) => logs.push(message),
  });
  await running.ready;
  const session = fake.sessions.get(SESSION_PARTITION)!;
  fetchThroughJar(session);
  const browser = createSystemBrowser({ press });
  fake.setSystemBrowser(browser.open);
  const signIn = () =>
    fake.ipcMain.invoke(
      IpcChannels.startGoogleSignIn,
      "app://clientdesk/auth",
    ) as Promise<GoogleSignInResult>;
  return { fake, session, browser, logs, signIn };
}

const storedSession = (userData: string) => {
  const file = path.join(userData, "session.bin");
  if (!existsSync(file)) return null;
  return new FakeSafeStorage().decryptString(readFileSync(file));
};

const serverHost = () => new URL(server.url).host;

describe("Google sign-in in the desktop app, through the system browser", () => {
  it("signs the app in: browser → server → Google → the app's loopback → code exchange in the app's session", async () => {
    const { fake, session, browser, signIn } = await startApp();
    const account = googleAccount();
    tokenClaims = account;
    fake.windows[0]!.focused = false;

    const result = await signIn();
    expect(result).toEqual({ outcome: "signed-in" });

    // The browser was sent to the server's desktop start, then Google, then the loopback.
    expect(fake.opened).toHaveLength(1);
    const started = new URL(fake.opened[0]!);
    expect(`${started.origin}${started.pathname}`).toBe(`${server.url}/auth/google/desktop`);
    expect(started.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    const [page] = (await Promise.all(fake.browserVisits)) as {
      url: string;
      status: number;
      body: string;
    }[];
    const loopback = new URL(page!.url);
    expect(loopback.hostname).toBe("127.0.0.1");
    expect(loopback.port).toBe(started.searchParams.get("port"));
    expect(loopback.pathname).toBe("/callback");
    expect(page!.status).toBe(200);
    expect(page!.body).toContain("You're signed in to ClientDesk");
    expect(page!.body).toContain("You can close this tab and return to the app.");
    expect(browser.visited.some((url) => url.startsWith(`${oauth.issuer.url}/authorize`))).toBe(
      true,
    );
    // Between Google and the loopback the user confirmed on the server's page.
    expect(browser.visited).toContain(`${server.url}/auth/google/desktop/confirm`);
    expect(browser.visited).toContain(`POST ${server.url}/auth/google/desktop/confirm`);

    // The app's session holds the server's session; the browser does not.
    const sid = session.cookies.jar.get("sid")?.value;
    expect(sid).toBeTruthy();
    expect(browser.cookiesFor(serverHost()).has("sid")).toBe(false);
    const me = await fetch(`${server.url}/api/user`, { headers: { cookie: `sid=${sid}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe(account.email);

    // ...which main keeps in the secure store, and the window comes back in front.
    await expect.poll(() => storedSession(fake.userData)).toContain(sid);
    expect(fake.windows[0]!.focused).toBe(true);
  });

  it("reports a refused Google account, and the browser says it failed", async () => {
    const { fake, session, signIn } = await startApp();
    tokenClaims = googleAccount({ email_verified: false });
    expect(await signIn()).toEqual({ outcome: "failed", reason: "google" });
    const [page] = (await Promise.all(fake.browserVisits)) as { status: number; body: string }[];
    expect(page!.status).toBe(400);
    expect(page!.body).toContain("Google sign-in failed");
    expect(session.cookies.jar.has("sid")).toBe(false);
    expect(storedSession(fake.userData)).toBeNull();
  });

  it("reports Cancel on the server's confirmation page as cancelled, and nothing is signed in", async () => {
    const { fake, session, browser, signIn } = await startApp("Cancel");
    tokenClaims = googleAccount();
    expect(await signIn()).toEqual({ outcome: "cancelled" });
    const [page] = (await Promise.all(fake.browserVisits)) as { status: number; body: string }[];
    expect(page!.status).toBe(200);
    expect(page!.body).toContain("Sign-in cancelled");
    expect(browser.visited).toContain(`POST ${server.url}/auth/google/desktop/cancel`);
    expect(session.cookies.jar.has("sid")).toBe(false);
    expect(storedSession(fake.userData)).toBeNull();
  });

  it("refuses the IPC call from anything but the app's page, or with arguments", async () => {
    const { fake } = await startApp();
    await expect(
      fake.ipcMain.invoke(IpcChannels.startGoogleSignIn, "https://evil.example/"),
    ).rejects.toThrow(/not from the app/);
    await expect(
      fake.ipcMain.invoke(IpcChannels.startGoogleSignIn, "app://clientdesk/", "extra"),
    ).rejects.toThrow(/takes no arguments/);
    expect(fake.opened).toEqual([]);
  });
});

/** A sign-in whose "browser" only notes the URL: the test plays the browser's part. */
function startAlone(
  options: { timeoutMs?: number; exchangeStatus?: number; exchangeAnswered?: Promise<void> } = {},
) {
  const opened: URL[] = [];
  const exchanges: string[] = [];
  const signIn = createGoogleSignIn({
    serverUrl: server.url,
    session: {
      async fetch(input) {
        exchanges.push(input);
        await options.exchangeAnswered;
        const status = options.exchangeStatus ?? 200;
        return new Response(JSON.stringify(status === 200 ? {} : { message: "refused" }), {
          status,
        });
      },
    },
    openBrowser: async (url) => {
      opened.push(new URL(url));
    },
    timeoutMs: options.timeoutMs,
  });
  return { signIn, opened, exchanges };
}

async function loopbackOf(opened: URL[]) {
  await expect.poll(() => opened.length).toBe(1);
  const url = opened[0]!;
  return {
    port: Number(url.searchParams.get("port")),
    state: url.searchParams.get("state")!,
  };
}

function refusesConnection(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

describe("the loopback listener", () => {
  it("takes only GET /callback with this sign-in's state; anything else changes nothing", async () => {
    const { signIn, opened, exchanges } = startAlone();
    const result = signIn.start();
    const { port, state } = await loopbackOf(opened);
    const base = `http://127.0.0.1:${port}`;

    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/callback?code=x&state=${state}`, { method: "POST" })).status).toBe(
      404,
    );
    const forged = await fetch(`${base}/callback?code=stolen&state=not-the-state`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain("This sign-in link has expired");
    expect((await fetch(`${base}/callback?code=stolen`)).status).toBe(400);
    expect(exchanges).toEqual([]);

    const done = await fetch(`${base}/callback?code=good&state=${state}`);
    expect(done.status).toBe(200);
    expect(done.headers.get("content-security-policy")).toBe(
      "default-src 'none'; style-src 'unsafe-inline'",
    );
    expect(await result).toEqual({ outcome: "signed-in" });
    expect(exchanges).toEqual([`${server.url}/api/auth/desktop/exchange`]);
    expect(await refusesConnection("127.0.0.1", port)).toBe(true);
  });

  it("reports a code the server refuses, and the browser says it failed", async () => {
    const { signIn, opened, exchanges } = startAlone({ exchangeStatus: 400 });
    const result = signIn.start();
    const { port, state } = await loopbackOf(opened);
    const page = await fetch(`http://127.0.0.1:${port}/callback?code=spent&state=${state}`);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("Google sign-in failed");
    expect(exchanges).toHaveLength(1);
    expect(await result).toEqual({ outcome: "failed", reason: "exchange" });
  });

  it("listens on 127.0.0.1 only, not on the machine's other addresses", async () => {
    const { signIn, opened } = startAlone();
    const result = signIn.start();
    const { port } = await loopbackOf(opened);
    expect(await refusesConnection("127.0.0.1", port)).toBe(false);
    const others = Object.values(os.networkInterfaces())
      .flat()
      .filter((address) => address && !address.internal)
      .map((address) => address!.address);
    for (const address of ["::1", ...others]) {
      expect(await refusesConnection(address, port)).toBe(true);
    }
    signIn.cancel();
    expect(await result).toEqual({ outcome: "cancelled" });
  });

  it("ends, signed in, when the browser tab closes while the code is being exchanged", async () => {
    let answerExchange = () => {};
    const exchangeAnswered = new Promise<void>((resolve) => {
      answerExchange = resolve;
    });
    const { signIn, opened, exchanges } = startAlone({ exchangeAnswered });
    const result = signIn.start();
    const { port, state } = await loopbackOf(opened);
    // The browser asks for the callback, then goes away before the page comes.
    const tab = new AbortController();
    const callback = fetch(`http://127.0.0.1:${port}/callback?code=good&state=${state}`, {
      signal: tab.signal,
    }).catch(() => "tab closed");
    await expect.poll(() => exchanges.length).toBe(1);
    tab.abort();
    expect(await callback).toBe("tab closed");
    answerExchange();
    expect(await result).toEqual({ outcome: "signed-in" });
    expect(await refusesConnection("127.0.0.1", port)).toBe(true);
  });

  it("gives up after the timeout and closes the port", async () => {
    const { signIn, opened } = startAlone({ timeoutMs: 100 });
    const result = signIn.start();
    const { port } = await loopbackOf(opened);
    expect(await result).toEqual({ outcome: "failed", reason: "timeout" });
    expect(await refusesConnection("127.0.0.1", port)).toBe(true);
  });

  it("cancels the first sign-in when a second one starts", async () => {
    const { signIn, opened } = startAlone();
    const first = signIn.start();
    const firstLoopback = await loopbackOf(opened);
    const second = signIn.start();
    expect(await first).toEqual({ outcome: "cancelled" });
    expect(await refusesConnection("127.0.0.1", firstLoopback.port)).toBe(true);
    await expect.poll(() => opened.length).toBe(2);
    const secondPort = Number(opened[1]!.searchParams.get("port"));
    const secondState = opened[1]!.searchParams.get("state")!;
    expect(secondState).not.toBe(firstLoopback.state);
    await fetch(`http://127.0.0.1:${secondPort}/callback?code=c&state=${secondState}`);
    expect(await second).toEqual({ outcome: "signed-in" });
  });
});
