import type { Browser, Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Message, StoredFile } from "../../server/models";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient } from "../support/conversations";
import { signUpOwner } from "../support/factories";
import { expectToast, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

/** Messages and uploads survive a flaky network: retried with one Idempotency-Key, stored once. */
describe.skipIf(!browserAvailable)("retrying messages and uploads in the browser", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const pageAs = (agent: { cookieHeader: string }): Promise<Page> =>
    openPage(browser, server.url, agent);

  const composer = (page: Page) => page.getByRole("textbox", { name: "Message" });
  const log = (page: Page) => page.getByRole("log");
  const contents = async (clientId: string) =>
    (await Message.query().where("clientId", clientId).orderBy("seq")).map((m) => m.content);

  /**
   * Routes the POSTs to `pattern` through `attempt(n, route)` (n from 1) and records the
   * Idempotency-Key each one carried.
   */
  async function interceptPosts(
    page: Page,
    pattern: string,
    attempt: (n: number, route: Route) => Promise<void>,
  ) {
    const keys: (string | null)[] = [];
    await page.route(pattern, async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      keys.push(await route.request().headerValue("idempotency-key"));
      await attempt(keys.length, route);
    });
    return keys;
  }

  /** The request reaches the server, which stores it, but its answer never comes back. */
  async function loseAnswer(route: Route) {
    await route.fetch();
    await route.abort("connectionreset");
  }

  it("owner's message whose answers are lost is retried with one key and stored once", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    const op = await pageAs(owner.agent);
    const keys = await interceptPosts(op, "**/api/clients/*/messages", async (n, route) => {
      if (n === 1) await loseAnswer(route);
      else if (n === 2) await route.abort("internetdisconnected");
      else await route.continue();
    });
    await op.goto(`/?client=${client.id}`);
    await log(op).getByText("No messages yet").waitFor();

    // The stored message reaches the list by the websocket while the app still retries: it
    // must never show twice (as sent and as sending). Counted on every change of the page.
    await op.evaluate((text) => {
      const state = window as unknown as { maxCopies: number };
      state.maxCopies = 0;
      new MutationObserver(() => {
        const copies = [...document.querySelectorAll(".message__bubble")].filter(
          (bubble) => bubble.textContent === text,
        ).length;
        state.maxCopies = Math.max(state.maxCopies, copies);
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    }, "Here is the plan for Monday");
    await composer(op).fill("Here is the plan for Monday");
    await composer(op).press("Enter");
    await log(op).getByText("Sent", { exact: true }).waitFor();
    await expect.poll(() => keys.length).toBe(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(await log(op).getByText("Here is the plan for Monday").count()).toBe(1);
    expect(await op.evaluate(() => (window as unknown as { maxCopies: number }).maxCopies)).toBe(1);
    expect(await contents(client.id)).toEqual(["Here is the plan for Monday"]);

    // The next message gets a fresh key.
    await composer(op).fill("And one more thing");
    await composer(op).press("Enter");
    await log(op).getByText("And one more thing").waitFor();
    await expect.poll(() => keys.length).toBe(4);
    expect(keys[3]).not.toBe(keys[0]);
    await expect
      .poll(() => contents(client.id))
      .toEqual(["Here is the plan for Monday", "And one more thing"]);
  });

  it("client's message shows Not sent when the server stays unreachable, and Retry sends it once", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    const cp = await pageAs(client.agent);
    let reachable = false;
    const keys = await interceptPosts(cp, "**/api/clients/*/messages", async (_n, route) => {
      if (reachable) await route.continue();
      else await route.abort("internetdisconnected");
    });
    await cp.goto(`/client/${client.id}`);
    await log(cp).getByText("No messages yet").waitFor();

    await composer(cp).fill("Is the invoice paid?");
    await composer(cp).press("Enter");
    // Meanwhile the composer is free for the next message.
    await log(cp).getByText("Sending...").waitFor();
    expect(await composer(cp).inputValue()).toBe("");
    expect(await composer(cp).isEditable()).toBe(true);

    const notSent = log(cp).getByText("Not sent");
    await notSent.waitFor({ timeout: 15_000 });
    if (process.env.SCREENSHOT_DIR)
      await cp.screenshot({ path: `${process.env.SCREENSHOT_DIR}/portal-not-sent.png` });
    expect(keys).toHaveLength(4);
    expect(new Set(keys).size).toBe(1);

    reachable = true;
    await log(cp).getByRole("button", { name: "Retry" }).click();
    await notSent.waitFor({ state: "detached" });
    await log(cp).getByText("Sent", { exact: true }).waitFor();
    expect(keys).toHaveLength(5);
    expect(keys[4]).toBe(keys[0]);
    expect(await log(cp).getByText("Is the invoice paid?").count()).toBe(1);
    expect(await contents(client.id)).toEqual(["Is the invoice paid?"]);
  });

  it("an upload whose answer is lost is retried with its key and stored once", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    const op = await pageAs(owner.agent);
    const keys = await interceptPosts(op, "**/api/clients/*/upload", async (n, route) => {
      if (n === 1) await loseAnswer(route);
      else await route.continue();
    });
    await op.goto(`/?client=${client.id}`);
    await log(op).getByText("No messages yet").waitFor();

    await op.getByRole("button", { name: "Upload File" }).click();
    const dialog = op.getByRole("dialog", { name: "Upload File" });
    await dialog.locator('input[type="file"]').setInputFiles({
      name: "contract.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from("%PDF-1.4\n%%EOF\n"),
    });
    await dialog.getByRole("button", { name: "Upload", exact: true }).click();
    await expectToast(op, "File uploaded successfully");
    await log(op).getByText("contract.pdf").waitFor();
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(await StoredFile.query().where("clientId", client.id)).toHaveLength(1);
    expect(await Message.query().where("clientId", client.id)).toHaveLength(1);
  });
});
