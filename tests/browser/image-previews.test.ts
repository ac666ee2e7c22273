import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient } from "../support/conversations";
import { signUpOwner } from "../support/factories";
import { hugePng, photoJpeg } from "../support/images";
import { expectToast, openPage } from "../support/page";
import { type TestAgent, type TestServer, startTestServer } from "../support/server";

describe.skipIf(!browserAvailable)("conversation images in the browser", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const pageAs = (agent: TestAgent): Promise<Page> => openPage(browser, server.url, agent);

  it("the dashboard and the client portal show the server's preview, never the original", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    const photo = await photoJpeg(3200, 2400);
    const body = new FormData();
    body.append("file", new Blob([new Uint8Array(photo)]), "Site visit.jpg");
    const sent = await client.agent.request("POST", `/api/clients/${client.id}/upload`, { body });
    expect(sent.status).toBe(201);
    const { fileUrl, previewUrl } = sent.body as { fileUrl: string; previewUrl: string };
    expect(previewUrl).toBe(`${fileUrl}/preview`);

    const op = await pageAs(owner.agent);
    const cp = await pageAs(client.agent);
    await op.goto(`/?client=${client.id}`);
    await cp.goto(`/client/${client.id}`);
    for (const page of [op, cp]) {
      const log = page.getByRole("log");
      await log.getByRole("button", { name: "Preview Site visit.jpg" }).waitFor();
      const image = log.locator("img").first();
      expect(new URL(await image.evaluate((img: HTMLImageElement) => img.src)).pathname).toBe(
        previewUrl,
      );
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth))
        .toBe(1600);
      expect(await image.evaluate((img: HTMLImageElement) => img.naturalHeight)).toBe(1200);
      if (process.env.SCREENSHOT_DIR)
        await page.screenshot({
          path: `${process.env.SCREENSHOT_DIR}/image-preview-${page === op ? "owner" : "client"}.png`,
        });

      // The preview dialog shows the preview too; Download is the original.
      await log.getByRole("button", { name: "Preview Site visit.jpg" }).click();
      const dialog = page.getByRole("dialog", { name: "Site visit.jpg" });
      const large = dialog.locator("img");
      await expect
        .poll(() => large.evaluate((img: HTMLImageElement) => img.naturalWidth))
        .toBe(1600);
      expect(new URL(await large.evaluate((img: HTMLImageElement) => img.src)).pathname).toBe(
        previewUrl,
      );
      const download = dialog.getByRole("link", { name: "Download" });
      expect(new URL((await download.getAttribute("href")) ?? "", server.url).pathname).toBe(
        fileUrl,
      );
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
    }

    // No <img> of the page was ever given the original.
    for (const page of [op, cp]) {
      const sources = await page
        .locator("img")
        .evaluateAll((images) =>
          images.map((img) => new URL((img as HTMLImageElement).src).pathname),
        );
      expect(sources).not.toContain(fileUrl);
    }
  });

  it("an image of 20000 x 20000 pixels is refused with the server's message", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    const op = await pageAs(owner.agent);
    await op.goto(`/?client=${client.id}`);
    await op.getByRole("log").getByText("No messages yet").waitFor();
    await op.getByRole("button", { name: "Upload File" }).click();
    const dialog = op.getByRole("dialog", { name: "Upload File" });
    await dialog.locator('input[type="file"]').setInputFiles({
      name: "poster.png",
      mimeType: "image/png",
      buffer: hugePng(20_000, 20_000),
    });
    await dialog.getByText("poster.png").waitFor();
    await dialog.getByRole("button", { name: "Upload", exact: true }).click();
    await expectToast(
      op,
      "Images can have at most 40 megapixels; this one is 20000 × 20000 pixels",
    );
    if (process.env.SCREENSHOT_DIR)
      await op.screenshot({ path: `${process.env.SCREENSHOT_DIR}/image-too-large.png` });
    await op.getByRole("log").getByText("No messages yet").waitFor();
  });
});
