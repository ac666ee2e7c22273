/**
 * The browser's upload dialog shows the upload's progress and can stop it (XMLHttpRequest's
 * upload events): against the real server, with Chromium's upload bandwidth throttled so that
 * the upload is still running when Cancel is pressed.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoSeriousAxeViolations } from "../support/axe";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addClient } from "../support/conversations";
import { signUpOwner } from "../support/factories";
import { expectToast, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";
import { pdfOfSize } from "../support/storage-files";

const screenshotDir = process.env.SCREENSHOT_DIR;

describe.skipIf(!browserAvailable)("upload progress in the browser", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("shows the bytes sent as they go, and Cancel stops the upload: nothing is stored", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addClient(owner, { name: "Carla Client" });
    const page = await openPage(browser, server.url, owner.agent);
    await page.goto(`/?client=${client.id}`);
    await page.getByRole("log").getByText("No messages yet").waitFor();

    const network = await page.context().newCDPSession(page);
    await network.send("Network.enable");
    await network.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 512 * 1024,
    });

    await page.getByRole("button", { name: "Upload File" }).click();
    const dialog = page.getByRole("dialog", { name: "Upload File" });
    const file = {
      name: "Big brief.pdf",
      mimeType: "application/pdf",
      buffer: pdfOfSize(6 * 1024 * 1024),
    };
    await dialog.locator('input[type="file"]').setInputFiles(file);
    await dialog.getByRole("button", { name: "Upload", exact: true }).click();

    const bar = dialog.getByRole("progressbar");
    await expect
      .poll(async () => Number(await bar.getAttribute("aria-valuenow")), { timeout: 10_000 })
      .toBeGreaterThan(0);
    const percent = Number(await bar.getAttribute("aria-valuenow"));
    expect(percent).toBeLessThan(100);
    await dialog.getByText(/^[\d.]+ (KB|MB) of 6 MB$/).waitFor();
    await expectNoSeriousAxeViolations(page, "the upload dialog while uploading");
    if (screenshotDir) {
      mkdirSync(screenshotDir, { recursive: true });
      await page.screenshot({ path: path.join(screenshotDir, "web-upload-progress.png") });
    }

    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expectToast(page, "Upload cancelled");
    await dialog.getByText("Drag a file here or click to browse").waitFor();
    expect(await bar.count()).toBe(0);
    const attachments = await owner.agent.get(`/api/clients/${client.id}/attachments`);
    expect(attachments.body).toEqual([]);

    // Unthrottled, the same file goes through (its key reused) and is stored once.
    await network.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await dialog.locator('input[type="file"]').setInputFiles(file);
    await dialog.getByRole("button", { name: "Upload", exact: true }).click();
    await expectToast(page, "File uploaded successfully");
    await expect
      .poll(
        async () => (await owner.agent.get(`/api/clients/${client.id}/attachments`)).body.length,
      )
      .toBe(1);
    await page.context().close();
  });
});
