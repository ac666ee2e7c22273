import type { Dialog, Page } from "playwright-core";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient } from "../support/conversations";
import { signUpOwner } from "../support/factories";
import { openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

/**
 * The web dashboard keeps unsent messages in memory only (a browser may be shared), so leaving
 * or reloading the page while some wait for the connection asks first; with none, it does not.
 */
describe.skipIf(!browserAvailable)("leaving the owner app with unsent messages", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const composer = (page: Page) => page.getByRole("textbox", { name: "Message" });

  async function openConversation(): Promise<{ page: Page; dialogs: Dialog[] }> {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    const page = await openPage(browser, server.url, owner.agent, {
      viewport: { width: 1280, height: 800 },
    });
    const dialogs: Dialog[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog);
      // Stay on the page.
      void dialog.dismiss();
    });
    await page.goto(`/?client=${client.id}`);
    await page.getByRole("heading", { name: "Carla Client" }).waitFor();
    return { page, dialogs };
  }

  it("asks before a reload while a message waits for the connection, and stays", async () => {
    const { page, dialogs } = await openConversation();
    await page.context().setOffline(true);
    await composer(page).fill("Written on the train");
    await composer(page).press("Enter");
    await page.getByText("Waiting for connection").waitFor();

    void page.reload().catch(() => {});
    await expect.poll(() => dialogs.map((dialog) => dialog.type())).toEqual(["beforeunload"]);
    // Dismissed: the page and its queued message are still there.
    await page.getByText("Waiting for connection").waitFor();
    expect(await page.getByText("Written on the train").count()).toBe(1);

    // Sent once the connection is back: leaving no longer asks.
    await page.context().setOffline(false);
    await page.getByRole("log").getByText("Written on the train").waitFor({ timeout: 20_000 });
    // The log may show it (by the websocket) a moment before the POST's answer confirms it.
    const wouldAsk = () =>
      page.evaluate(() => {
        const event = new Event("beforeunload", { cancelable: true });
        window.dispatchEvent(event);
        return event.defaultPrevented;
      });
    await expect.poll(wouldAsk).toBe(false);
    await page.reload();
    await page.getByRole("log").getByText("Written on the train").waitFor();
    expect(dialogs).toHaveLength(1);
  }, 60_000);

  it("does not ask when nothing is waiting", async () => {
    const { page, dialogs } = await openConversation();
    // The page has had a user gesture (browsers ask only then): typing, without sending.
    await composer(page).fill("Just a draft");
    await page.reload();
    await page.getByRole("heading", { name: "Carla Client" }).waitFor();
    expect(dialogs).toEqual([]);
  }, 60_000);
});
