import type { Browser, Locator, Page } from "playwright-core";
import { PDFDocument, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoSeriousAxeViolations } from "../support/axe";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient, type JoinedClient, setTier } from "../support/conversations";
import { type SignedInOwner, signUpOwner } from "../support/factories";
import { keepScreenshot, openPage, sessionOf } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

/** A 900x600 PNG of one colour with a white square where `mark` says: each version differs. */
function versionPng(colour: { r: number; g: number; b: number }, mark: number): Promise<Buffer> {
  return sharp({ create: { width: 900, height: 600, channels: 3, background: colour } })
    .composite([
      {
        input: { create: { width: 120, height: 120, channels: 3, background: "#ffffff" } },
        left: 60 + mark * 200,
        top: 240,
      },
    ])
    .png()
    .toBuffer();
}

/** A PDF of letter pages, each saying which version and page it is. */
async function versionPdf(version: number, pages: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let page = 1; page <= pages; page++) {
    pdf
      .addPage([612, 792])
      .drawText(`Version ${version}, page ${page}`, { x: 72, y: 680, size: 36, font });
  }
  return Buffer.from(await pdf.save());
}

function fileForm(name: string, bytes: Buffer, requiresFeedback: boolean): FormData {
  const body = new FormData();
  if (requiresFeedback) body.append("requiresFeedback", "true");
  body.append("file", new Blob([new Uint8Array(bytes)]), name);
  return body;
}

/**
 * The owner sends `files[0]` for approval; for each next file the client answers Needs Work
 * and the owner uploads it as the next version.
 */
async function sendVersions(
  owner: SignedInOwner,
  client: JoinedClient,
  files: { name: string; bytes: Buffer }[],
): Promise<{ fileUrl: string }[]> {
  const sentFiles: { fileUrl: string }[] = [];
  let latest = "";
  for (const [index, file] of files.entries()) {
    if (index > 0) {
      const decided = await client.agent.patch(`/api/messages/${latest}/feedback`, {
        feedbackStatus: "needs_work",
        feedbackComment: `Change version ${index}`,
      });
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    }
    const path =
      index === 0 ? `/api/clients/${client.id}/upload` : `/api/messages/${latest}/versions`;
    const sent = await owner.agent.request("POST", path, {
      body: fileForm(file.name, file.bytes, index === 0),
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    latest = sent.body.id;
    sentFiles.push(sent.body);
  }
  return sentFiles;
}

/** The clip-path the browser applies to the top (second) image of the swipe. */
const clipOf = (image: Locator) => image.evaluate((element) => getComputedStyle(element).clipPath);

/** The focused element's accessible role and name, as a keyboard user meets it. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    return `${element?.getAttribute("role") ?? element?.tagName.toLowerCase()}: ${element?.getAttribute("aria-label") ?? element?.textContent}`;
  });

describe.skipIf(!browserAvailable)("comparing two versions of a file", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function ownerAndClient() {
    const owner = await signUpOwner(server, "Olivia Owner");
    await setTier(owner.id, "pro");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    return { owner, client };
  }

  it("the owner compares images side by side and with the swipe divider, by pointer and keyboard", async () => {
    const { owner, client } = await ownerAndClient();
    await sendVersions(owner, client, [
      { name: "Poster.png", bytes: await versionPng({ r: 200, g: 40, b: 40 }, 0) },
      { name: "Poster v2.png", bytes: await versionPng({ r: 40, g: 160, b: 60 }, 1) },
      { name: "Poster v3.png", bytes: await versionPng({ r: 30, g: 80, b: 200 }, 2) },
    ]);
    const page = await openPage(browser, server.url, owner.agent, {
      viewport: { width: 1280, height: 800 },
      defaultTimeout: 15_000,
    });
    await page.goto(`/?client=${client.id}`);
    const compare = page.getByRole("log").getByRole("button", { name: "Compare versions" });
    await compare.scrollIntoViewIfNeeded();
    await keepScreenshot(page, "compare-history-button");
    await compare.click();
    const dialog = page.getByRole("dialog", { name: "Compare versions of Poster v3.png" });

    // By default the latest version and the one before.
    const firstChoice = dialog.getByLabel("First version");
    const secondChoice = dialog.getByLabel("Second version");
    await expect.poll(() => firstChoice.inputValue()).toBe("2");
    expect(await secondChoice.inputValue()).toBe("3");

    // Side by side: both images, each shown from its preview.
    const second = dialog.getByRole("img", { name: "Poster v3.png, version 3" });
    const sideBySide = async (firstName: string) => {
      const first = dialog.getByRole("img", { name: firstName });
      for (const image of [first, second]) {
        await expect
          .poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth))
          .toBe(900);
        expect(await image.getAttribute("src")).toMatch(/\/preview$/);
      }
      const [left, right] = [await first.boundingBox(), await second.boundingBox()];
      expect(left && right && left.x + left.width <= right.x).toBe(true);
      expect(left?.width).toBeGreaterThan(300);
    };
    await sideBySide("Poster v2.png, version 2");
    await keepScreenshot(page, "compare-images-side-by-side");
    await expectNoSeriousAxeViolations(page, "compare images, side by side");

    // Any two of the thread: version 1 against version 3.
    await firstChoice.selectOption("1");
    await sideBySide("Poster.png, version 1");

    // Swipe: version 3 over version 1, cut at a divider in the middle.
    await dialog.getByRole("tab", { name: "Swipe" }).click();
    const slider = dialog.getByRole("slider", {
      name: "Divider: version 1 on the left, version 3 on the right",
    });
    const top = dialog.getByRole("img", { name: "Poster v3.png, version 3" });
    await expect
      .poll(() => top.evaluate((element: HTMLImageElement) => element.naturalWidth))
      .toBe(900);
    expect(await slider.getAttribute("aria-valuenow")).toBe("50");
    expect(await slider.getAttribute("aria-valuetext")).toBe("50% version 1, 50% version 3");
    expect(await clipOf(top)).toBe("inset(0px 0px 0px 50%)");
    await keepScreenshot(page, "compare-images-swipe");
    await expectNoSeriousAxeViolations(page, "compare images, swipe");

    // The pointer: a press at a quarter of the box moves the divider there; a drag follows.
    const box = await dialog.locator(".compare-swipe__box").boundingBox();
    if (!box) throw new Error("the swipe box is not on screen");
    const middle = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width * 0.25, middle);
    await page.mouse.down();
    await expect.poll(() => slider.getAttribute("aria-valuenow")).toBe("25");
    expect(await clipOf(top)).toMatch(/^inset\(0px 0px 0px 25(\.\d+)?%\)$/);
    await page.mouse.move(box.x + box.width * 0.8, middle, { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => slider.getAttribute("aria-valuenow")).toBe("80");
    expect(await clipOf(top)).toMatch(/^inset\(0px 0px 0px 80(\.\d+)?%\)$/);
    const handle = await slider.boundingBox();
    expect(
      Math.abs((handle?.x ?? 0) + (handle?.width ?? 0) / 2 - (box.x + box.width * 0.8)),
    ).toBeLessThan(2);
    await keepScreenshot(page, "compare-images-swiped");

    // The keyboard: the slider takes the focus; arrows, Home and End move it.
    await slider.focus();
    expect(await focused(page)).toBe(
      "slider: Divider: version 1 on the left, version 3 on the right",
    );
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => slider.getAttribute("aria-valuenow")).toBe("75");
    await page.keyboard.press("Home");
    await expect.poll(() => slider.getAttribute("aria-valuenow")).toBe("0");
    expect(await clipOf(top)).toBe("inset(0px 0px 0px 0%)");
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => slider.getAttribute("aria-valuenow")).toBe("5");
    await page.keyboard.press("End");
    await expect.poll(() => slider.getAttribute("aria-valuenow")).toBe("100");
    expect(await clipOf(top)).toBe("inset(0px 0px 0px 100%)");
    expect(await slider.getAttribute("aria-valuetext")).toBe("100% version 1, 0% version 3");
    await page.keyboard.press("PageDown");
    await expect.poll(() => slider.getAttribute("aria-valuenow")).toBe("50");

    // Escape closes the dialog and gives the focus back to Compare versions.
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(await focused(page)).toBe("button: Compare versions");
  }, 90_000);

  it("a client on a phone compares two PDF versions page by page", async () => {
    const { owner, client } = await ownerAndClient();
    const [shorter] = await sendVersions(owner, client, [
      { name: "Brochure.pdf", bytes: await versionPdf(1, 2) },
      { name: "Brochure v2.pdf", bytes: await versionPdf(2, 3) },
    ]);
    const page = await openPage(browser, server.url, client.agent, {
      viewport: { width: 375, height: 667 },
      defaultTimeout: 15_000,
    });
    const elsewhere: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text()))
        elsewhere.push(message.text());
    });
    const dialog = page.getByRole("dialog", { name: "Compare versions of Brochure v2.pdf" });
    // The shorter version arrives last: pdf.js 5.4.624 then took its page count for both
    // (mozilla/pdf.js#20629) and refused page 3 of the longer one.
    await page.route(`**${shorter?.fileUrl}`, async (route) => {
      await dialog.getByText("Version 2, page 1", { exact: true }).waitFor();
      await route.continue();
    });
    await page.goto(`/client/${client.id}`);
    await page.getByRole("log").getByRole("button", { name: "Compare versions" }).click();
    await dialog.getByText("Page 1 of 3", { exact: true }).waitFor();
    // Both drawn, and their text there (pdf.js's text layer) for screen readers.
    await dialog.getByText("Version 1, page 1", { exact: true }).waitFor();
    await dialog.getByText("Version 2, page 1", { exact: true }).waitFor();
    await expect.poll(() => dialog.locator("canvas[data-rendered]").count()).toBe(2);

    // On a phone one above the other, each as wide as the screen allows.
    const panes = dialog.locator(".compare-pane");
    const [upper, lower] = [await panes.nth(0).boundingBox(), await panes.nth(1).boundingBox()];
    expect(upper && lower && upper.y + upper.height <= lower.y).toBe(true);
    expect(upper?.width).toBeGreaterThan(280);
    const dialogBox = await dialog.boundingBox();
    expect((dialogBox?.x ?? -1) >= 0 && (dialogBox?.width ?? 999) <= 375).toBe(true);
    await keepScreenshot(page, "compare-pdf-page1");
    await expectNoSeriousAxeViolations(page, "compare PDFs on a phone");

    // One control pages both.
    const next = dialog.getByRole("button", { name: "Next page" });
    await next.click();
    await dialog.getByText("Page 2 of 3", { exact: true }).waitFor();
    await dialog.getByText("Version 1, page 2", { exact: true }).waitFor();
    await dialog.getByText("Version 2, page 2", { exact: true }).waitFor();

    // By keyboard to the last page, which version 1 does not have.
    await next.focus();
    await page.keyboard.press("Enter");
    await dialog.getByText("Page 3 of 3", { exact: true }).waitFor();
    await dialog.getByText("Version 1 has no page 3", { exact: true }).waitFor();
    await dialog.getByText("Version 2, page 3", { exact: true }).waitFor();
    expect(await next.getAttribute("aria-disabled")).toBe("true");
    await keepScreenshot(page, "compare-pdf-no-page");
    await expectNoSeriousAxeViolations(page, "compare PDFs, a page one version lacks");

    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Enter");
    await dialog.getByText("Page 2 of 3", { exact: true }).waitFor();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(elsewhere).toEqual([]);
  }, 90_000);
  it("a client on a phone swipes the divider with a finger", async () => {
    const { owner, client } = await ownerAndClient();
    await sendVersions(owner, client, [
      { name: "Logo.png", bytes: await versionPng({ r: 200, g: 40, b: 40 }, 0) },
      { name: "Logo v2.png", bytes: await versionPng({ r: 30, g: 80, b: 200 }, 2) },
    ]);
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 375, height: 667 },
      hasTouch: true,
      isMobile: true,
    });
    context.setDefaultTimeout(15_000);
    await context.addCookies([{ name: "sid", value: sessionOf(client.agent), url: server.url }]);
    const page = await context.newPage();
    await page.goto(`/client/${client.id}`);
    await page.getByRole("log").getByRole("button", { name: "Compare versions" }).tap();
    const dialog = page.getByRole("dialog", { name: "Compare versions of Logo v2.png" });
    // Side by side on a phone too: two halves of the screen.
    for (const name of ["Logo.png, version 1", "Logo v2.png, version 2"]) {
      const image = dialog.getByRole("img", { name });
      await expect
        .poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth))
        .toBe(900);
    }
    await keepScreenshot(page, "compare-images-side-by-side");
    await dialog.getByRole("tab", { name: "Swipe" }).tap();
    const slider = dialog.getByRole("slider", {
      name: "Divider: version 1 on the left, version 2 on the right",
    });
    const top = dialog.getByRole("img", { name: "Logo v2.png, version 2" });
    await expect
      .poll(() => top.evaluate((element: HTMLImageElement) => element.naturalWidth))
      .toBe(900);
    await expectNoSeriousAxeViolations(page, "compare images on a phone, swipe");

    // A finger from the middle to a fifth of the box: the divider follows it.
    const box = await dialog.locator(".compare-swipe__box").boundingBox();
    if (!box) throw new Error("the swipe box is not on screen");
    const y = box.y + box.height / 2;
    const touch = await context.newCDPSession(page);
    const finger = (type: string, x?: number) =>
      touch.send("Input.dispatchTouchEvent", {
        type: type as "touchStart",
        touchPoints: x === undefined ? [] : [{ x, y }],
      });
    await finger("touchStart", box.x + box.width / 2);
    for (const fraction of [0.45, 0.35, 0.25, 0.2])
      await finger("touchMove", box.x + box.width * fraction);
    await finger("touchEnd");
    await expect.poll(() => slider.getAttribute("aria-valuenow")).toBe("20");
    expect(await clipOf(top)).toMatch(/^inset\(0px 0px 0px 20(\.\d+)?%\)$/);
    await keepScreenshot(page, "compare-images-swipe");
    await context.close();
  }, 90_000);

  it("versions of different kinds show side by side, each as it can be", async () => {
    const { owner, client } = await ownerAndClient();
    await sendVersions(owner, client, [
      { name: "Flyer.pdf", bytes: await versionPdf(1, 2) },
      { name: "Flyer.png", bytes: await versionPng({ r: 40, g: 160, b: 60 }, 1) },
    ]);
    const page = await openPage(browser, server.url, owner.agent, {
      viewport: { width: 1280, height: 800 },
      defaultTimeout: 15_000,
    });
    await page.goto(`/?client=${client.id}`);
    await page.getByRole("log").getByRole("button", { name: "Compare versions" }).click();
    const dialog = page.getByRole("dialog", { name: "Compare versions of Flyer.png" });
    await dialog.getByText("Page 1 of 2", { exact: true }).waitFor();
    await dialog.getByText("Version 1, page 1", { exact: true }).waitFor();
    await dialog.getByRole("img", { name: "Flyer.png, version 2" }).waitFor();
    // Only two images swipe.
    expect(await dialog.getByRole("tab", { name: "Swipe" }).count()).toBe(0);
    await keepScreenshot(page, "compare-pdf-and-image");
    await dialog.getByRole("button", { name: "Next page" }).click();
    await dialog.getByText("Version 1, page 2", { exact: true }).waitFor();
    await dialog.getByText("Version 2 has no page 2", { exact: true }).waitFor();
    await expectNoSeriousAxeViolations(page, "compare a PDF and an image");
  }, 90_000);
});
