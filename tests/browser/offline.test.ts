import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Message } from "../../server/models";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient, type JoinedClient } from "../support/conversations";
import { type SignedInOwner, signUpOwner } from "../support/factories";
import { openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";
import { TcpProxy } from "../support/tcp-proxy";

/**
 * The owner app offline: the server is cut off at the network (a TCP proxy the page reaches it
 * through stops; its port then refuses connections), the app says so, keeps what it loaded,
 * queues what the owner sends and sends it once, in order, when the server is back.
 */
describe.skipIf(!browserAvailable)("the owner app while the server cannot be reached", () => {
  let server: TestServer;
  let browser: Browser;
  let proxy: TcpProxy;
  /** The page's address of the server: through the proxy ([::1] is one of its own origins). */
  let base: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    const port = Number(new URL(server.url).port);
    proxy = new TcpProxy({ host: "127.0.0.1", port }, "::1", port);
    await proxy.start();
    base = `http://[::1]:${port}`;
  });
  afterAll(async () => {
    await proxy?.close();
    await browser?.close();
    await server?.close();
  });

  const composer = (page: Page) => page.getByRole("textbox", { name: "Message" });
  const log = (page: Page) => page.getByRole("log");
  const banner = (page: Page) => page.locator(".connection-banner");
  const contents = async (clientId: string) =>
    (await Message.query().where("clientId", clientId).orderBy("seq")).map((m) => m.content);
  const shot = async (page: Page, name: string) => {
    const dir = process.env.SCREENSHOT_DIR;
    if (dir) await page.screenshot({ path: `${dir}/${name}.png` });
  };

  async function ownerWithConversation(): Promise<{
    owner: SignedInOwner;
    client: JoinedClient;
    page: Page;
  }> {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    await client.agent.post(`/api/clients/${client.id}/messages`, {
      content: "Can we talk Monday?",
    });
    const page = await openPage(browser, base, owner.agent, {
      viewport: { width: 1280, height: 800 },
    });
    await page.goto(`/?client=${client.id}`);
    await log(page).getByText("Can we talk Monday?").waitFor();
    return { owner, client, page };
  }

  async function send(page: Page, text: string) {
    await composer(page).fill(text);
    await composer(page).press("Enter");
  }

  it("says so, keeps the conversation on screen, queues messages and sends them once, in order, when the server is back", async () => {
    const { client, page } = await ownerWithConversation();
    const keys: (string | null)[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().endsWith(`/clients/${client.id}/messages`))
        keys.push(request.headers()["idempotency-key"] ?? null);
    });

    await proxy.cut();
    await banner(page).getByText("Can't reach the server.").waitFor({ timeout: 20_000 });
    expect(await banner(page).getAttribute("role")).toBe("status");
    await banner(page)
      .getByText("Messages you send will go out when the connection is back.")
      .waitFor();

    await send(page, "First, the brief");
    await send(page, "Second, the budget");
    const unsent = page.getByRole("list", { name: "Messages not yet sent" });
    await expect.poll(() => unsent.getByText("Waiting for connection").count()).toBe(2);
    // What was loaded stays: the conversation and the client list, no error page.
    await log(page).getByText("Can we talk Monday?").waitFor();
    await page.getByRole("navigation", { name: "Clients" }).getByText("Carla Client").waitFor();
    expect(await page.getByText("We couldn't load").count()).toBe(0);
    expect(await composer(page).isEditable()).toBe(true);
    await shot(page, "offline-queued");
    expect(await contents(client.id)).toEqual(["Can we talk Monday?"]);

    await proxy.resume();
    // Try now probes at once rather than at the end of the backoff's current wait.
    // The backoff's own probe may win the race and take the banner (and the button) away first.
    const tryNow = banner(page).getByRole("button", { name: "Try now" });
    await Promise.race([tryNow.click().catch(() => "gone"), tryNow.waitFor({ state: "detached" })]);
    await expect
      .poll(() => contents(client.id), { timeout: 30_000 })
      .toEqual(["Can we talk Monday?", "First, the brief", "Second, the budget"]);
    await expect.poll(() => banner(page).locator("p").count(), { timeout: 20_000 }).toBe(0);
    await expect.poll(() => unsent.count()).toBe(0);
    await log(page).getByText("Second, the budget").waitFor();
    expect(await log(page).getByText("First, the brief").count()).toBe(1);
    // The client sees both, once each, in order.
    const seen = await client.agent.get(`/api/clients/${client.id}/messages`);
    expect(seen.body.map((message: { content: string }) => message.content)).toEqual([
      "Can we talk Monday?",
      "First, the brief",
      "Second, the budget",
    ]);
    // Each attempt of a message carried its own key, and no message was tried while cut off.
    expect(new Set(keys).size).toBe(2);
    await shot(page, "offline-back");
  }, 90_000);

  it("a message the server stored just before the connection dropped is stored once after it returns", async () => {
    const { client, page } = await ownerWithConversation();
    const keys: (string | null)[] = [];
    await page.route("**/api/clients/*/messages", async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      keys.push(await route.request().headerValue("idempotency-key"));
      if (keys.length > 1) return route.continue();
      // The server handles it; then the network goes, and the answer with it.
      await route.fetch();
      await proxy.cut();
      await route.abort("connectionreset");
    });

    await send(page, "Contract attached below");
    await banner(page).getByText("Can't reach the server.").waitFor({ timeout: 20_000 });
    expect(await contents(client.id)).toEqual(["Can we talk Monday?", "Contract attached below"]);
    await shot(page, "offline-answer-lost");

    await proxy.resume();
    await expect.poll(() => keys.length, { timeout: 30_000 }).toBe(2);
    expect(keys[1]).toBe(keys[0]);
    await expect.poll(() => banner(page).locator("p").count(), { timeout: 20_000 }).toBe(0);
    await expect.poll(() => log(page).getByText("Contract attached below").count()).toBe(1);
    expect(await page.getByText("Waiting for connection").count()).toBe(0);
    expect(await contents(client.id)).toEqual(["Can we talk Monday?", "Contract attached below"]);
  }, 90_000);

  it("when the browser is offline it says You're offline at once and sends the queue when the network returns", async () => {
    const { client, page } = await ownerWithConversation();
    await page.context().setOffline(true);
    await banner(page).getByText("You're offline.").waitFor();
    await send(page, "Written on the train");
    await page.getByText("Waiting for connection").waitFor();
    await log(page).getByText("Can we talk Monday?").waitFor();
    await shot(page, "offline-device");

    await page.context().setOffline(false);
    await expect
      .poll(() => contents(client.id), { timeout: 20_000 })
      .toEqual(["Can we talk Monday?", "Written on the train"]);
    await expect.poll(() => banner(page).locator("p").count()).toBe(0);
    await expect.poll(() => log(page).getByText("Written on the train").count()).toBe(1);
  }, 60_000);
});
