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

    const keys: (string | null)[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().endsWith(`/clients/${client.id}/upload`))
        keys.push(request.headers()["idempotency-key"] ?? null);
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

    // Unthrottled, the file chosen again goes through and is the only one stored: the
    // cancelled upload left nothing. (Chosen again, it is another File, with another
    // lastModified here, so it is sent as a new upload with a new key.)
    await network.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await dialog.locator('input[type="file"]').setInputFiles(file);
    await dialog.getByRole("button", { name: "Upload", exact: true }).click();
    await expectToast(page, "File uploaded successfully");
    expect(keys).toHaveLength(2);
    const attachmentNames = async () =>
      (
        (await owner.agent.get(`/api/clients/${client.id}/attachments`)).body as {
          fileName: string;
        }[]
      ).map((attachment) => attachment.fileName);
    await expect.poll(attachmentNames).toEqual(["Big brief.pdf"]);
    await page.context().close();
  });

  it("says what went wrong: a proxy's pages are no message, a bare 413 gets the spec's text, no answer shows the server unreachable", async () => {
    const owner = await signUpOwner(server, "Owen Owner");
    const client = await addClient(owner, { name: "Cleo Client" });
    const page = await openPage(browser, server.url, owner.agent);
    let answer: "tooLarge" | "proxyError" | "none" | "server" = "tooLarge";
    await page.route("**/api/clients/*/upload", (route) => {
      if (answer === "tooLarge")
        return route.fulfill({
          status: 413,
          contentType: "text/html",
          body: "<html><body><h1>413 Request Entity Too Large</h1></body></html>",
        });
      if (answer === "proxyError")
        return route.fulfill({ status: 500, contentType: "text/html", body: "<h1>oops</h1>" });
      if (answer === "none") return route.abort("connectionrefused");
      return route.continue();
    });
    await page.route("**/healthz", (route) =>
      answer === "none" ? route.abort("connectionrefused") : route.continue(),
    );
    await page.goto(`/?client=${client.id}`);
    await page.getByRole("log").getByText("No messages yet").waitFor();
    await page.getByRole("button", { name: "Upload File" }).click();
    const dialog = page.getByRole("dialog", { name: "Upload File" });
    const file = { name: "Report.pdf", mimeType: "application/pdf", buffer: pdfOfSize(20_000) };
    const upload = async () => {
      await dialog.locator('input[type="file"]').setInputFiles(file);
      await dialog.getByRole("button", { name: "Upload", exact: true }).click();
    };
    const toast = (description: string) =>
      page
        .locator(".toast")
        .filter({ hasText: "Failed to upload file" })
        .filter({ hasText: description });

    await upload();
    await toast("File size must be less than 10 MB").waitFor();
    answer = "proxyError";
    await upload();
    await toast("Upload failed").waitFor();
    expect(await page.getByText("oops").count()).toBe(0);

    // Nobody answers: the app hears it from the upload, as from any request.
    answer = "none";
    await upload();
    const banner = page.locator(".connection-banner");
    await banner.getByText("Can't reach the server.").waitFor({ timeout: 15_000 });
    // The server is back: the upload's retry goes through and the banner goes.
    answer = "server";
    await expectToast(page, "File uploaded successfully");
    await expect
      .poll(() => banner.getByText("Can't reach the server.").count(), { timeout: 15_000 })
      .toBe(0);
    await page.context().close();
  });
});
