import { mkdirSync } from "node:fs";
import { PDFDocument, rgb, StandardFonts } from "pdf-lib";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoSeriousAxeViolations } from "../support/axe";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient, type JoinedClient, setTier } from "../support/conversations";
import { signUpOwner } from "../support/factories";
import { photoJpeg } from "../support/images";
import { openPage } from "../support/page";
import { type TestAgent, type TestServer, startTestServer } from "../support/server";

const shots = "/tmp/shots-review-marks";
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 667 };

/** A PDF of US-letter pages, each with a heading and a coloured band (pdf-lib). */
async function proofPdf(pages: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let index = 1; index <= pages; index++) {
    const page = pdf.addPage([612, 792]);
    page.drawText(`Proof page ${index}`, { x: 72, y: 700, size: 32, font });
    page.drawRectangle({ x: 72, y: 400, width: 468, height: 120, color: rgb(0, 0.45, 0.85) });
  }
  return Buffer.from(await pdf.save());
}

interface Mark {
  id: string;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  comment: string;
  visibility: string;
  resolved: boolean;
  replies: { content: string }[];
}

describe.skipIf(!browserAvailable)("review marks in the file viewer", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A pro owner with a joined client, and a file sent to it for approval. */
  async function sentForApproval(name: string, bytes: Buffer) {
    const owner = await signUpOwner(server, "Olivia Owner");
    await setTier(owner.id, "pro");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    const body = new FormData();
    body.append("requiresFeedback", "true");
    body.append("file", new Blob([new Uint8Array(bytes)]), name);
    const sent = await owner.agent.request("POST", `/api/clients/${client.id}/upload`, { body });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    return { owner, client, messageId: sent.body.id as string };
  }

  async function marksAs(agent: TestAgent, messageId: string): Promise<Mark[]> {
    const list = await agent.get(`/api/messages/${messageId}/versions/1/annotations`);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    return list.body as Mark[];
  }

  /** Opens the conversation and the file's preview; the dialog once the marks are listed. */
  async function openViewer(
    who: { agent: TestAgent },
    path: string,
    fileName: string,
    viewport: { width: number; height: number },
  ): Promise<{ page: Page; dialog: Locator }> {
    const page = await openPage(browser, server.url, who.agent, {
      viewport,
      defaultTimeout: 15_000,
    });
    await page.goto(path);
    await page
      .getByRole("log")
      .locator(".file-message", { hasText: fileName })
      .getByRole("button", { name: "Preview", exact: true })
      .click();
    const dialog = page.getByRole("dialog", { name: fileName });
    await dialog.getByRole("region", { name: /^Marks/ }).waitFor();
    return { page, dialog };
  }

  const ownerPath = (client: JoinedClient) => `/?client=${client.id}`;
  const clientPath = (client: JoinedClient) => `/client/${client.id}`;

  /** Clicks (or drags from `from` to `to`) on an element, at fractions of its box. */
  async function pointAt(
    page: Page,
    target: Locator,
    from: [number, number],
    to?: [number, number],
  ) {
    const box = await target.boundingBox();
    if (!box) throw new Error("the target is not on screen");
    const at = ([x, y]: [number, number]) =>
      [box.x + x * box.width, box.y + y * box.height] as const;
    await page.mouse.move(...at(from));
    await page.mouse.down();
    if (to) await page.mouse.move(...at(to), { steps: 8 });
    await page.mouse.up();
  }

  async function saveMark(dialog: Locator, comment: string, internal = false) {
    const form = dialog.getByRole("form", { name: "New mark" });
    await form.getByRole("textbox").fill(comment);
    if (internal) await form.getByRole("checkbox", { name: "Only our team sees this" }).check();
    await form.getByRole("button", { name: "Save mark" }).click();
    await dialog
      .getByRole("article", { name: /^Mark \d+$/ })
      .getByText(comment)
      .waitFor();
  }

  const listItems = (dialog: Locator) => dialog.locator(".marks-list__item");

  it("on a PDF: a client on a phone marks a point and a box, the owner sees them live and replies, the client resolves", async () => {
    const { owner, client, messageId } = await sentForApproval("Brochure.pdf", await proofPdf(3));
    const desk = await openViewer(owner, ownerPath(client), "Brochure.pdf", DESKTOP);
    await desk.dialog.getByText("No marks yet. Choose Add mark, then click the file.").waitFor();
    const phone = await openViewer(client, clientPath(client), "Brochure.pdf", PHONE);
    const canvas = phone.dialog.locator("canvas[data-rendered]");
    await canvas.waitFor();

    // A click is a point, where it was clicked.
    await phone.dialog.getByRole("button", { name: "Add mark" }).click();
    await phone.dialog.getByText("Click the file for a point, or drag for a box.").waitFor();
    await pointAt(phone.page, phone.dialog.getByTestId("mark-layer"), [0.25, 0.2]);
    await phone.page.screenshot({ path: `${shots}/pdf-phone-new-point.png` });
    await saveMark(phone.dialog, "The logo is too small");
    // A drag is a box.
    await phone.dialog.getByRole("button", { name: "All marks" }).click();
    await phone.dialog.getByRole("button", { name: "Add mark" }).click();
    await pointAt(phone.page, phone.dialog.getByTestId("mark-layer"), [0.1, 0.3], [0.9, 0.45]);
    await saveMark(phone.dialog, "Make this band green");

    const saved = await marksAs(client.agent, messageId);
    expect(saved).toHaveLength(2);
    const [point, box] = saved as [Mark, Mark];
    expect(point).toMatchObject({ page: 1, width: 0, height: 0, comment: "The logo is too small" });
    expect(point.x).toBeCloseTo(0.25, 1);
    expect(point.y).toBeCloseTo(0.2, 1);
    expect(box.x).toBeCloseTo(0.1, 1);
    expect(box.y).toBeCloseTo(0.3, 1);
    expect(box.width).toBeCloseTo(0.8, 1);
    expect(box.height).toBeCloseTo(0.15, 1);

    // The owner's open viewer follows (annotations_changed), pins and boxes on the page.
    await expect.poll(() => listItems(desk.dialog).count()).toBe(2);
    await desk.dialog.locator(".mark--point .mark__number").waitFor();
    await desk.dialog.locator(".mark--box").waitFor();
    // Placed by fractions: the pin is a quarter across the owner's (larger) page too.
    const layer = await desk.dialog.getByTestId("mark-layer").boundingBox();
    // The pin's tip (its number's lower-left corner) is on the spot.
    const pin = await desk.dialog.locator(".mark--point .mark__number").boundingBox();
    if (!layer || !pin) throw new Error("no layer or pin");
    expect((pin.x - layer.x) / layer.width).toBeCloseTo(0.25, 1);
    expect((pin.y + pin.height - layer.y) / layer.height).toBeCloseTo(0.2, 1);

    // The owner replies from the list.
    await listItems(desk.dialog).filter({ hasText: "The logo is too small" }).click();
    const thread = desk.dialog.getByRole("article", { name: "Mark 1" });
    await thread.getByRole("textbox", { name: "Reply" }).fill("Bigger in the next version");
    await thread.getByRole("button", { name: "Send reply" }).click();
    await thread.getByText("Bigger in the next version").waitFor();
    await desk.page.screenshot({ path: `${shots}/pdf-desktop-thread.png` });
    await expectNoSeriousAxeViolations(desk.page, "the PDF viewer with a thread, 1280 px");

    // The client opens the same thread from its pin on the page, sees the reply, resolves.
    await phone.dialog.getByRole("button", { name: "All marks" }).click();
    await phone.dialog.getByRole("button", { name: /^Mark 1: The logo is too small/ }).click();
    const clientThread = phone.dialog.getByRole("article", { name: "Mark 1" });
    await clientThread.getByText("Bigger in the next version").waitFor();
    await phone.page.screenshot({ path: `${shots}/pdf-phone-thread.png` });
    await expectNoSeriousAxeViolations(phone.page, "the PDF viewer with a thread, 375 px");
    await clientThread.getByRole("button", { name: "Resolve" }).click();
    await clientThread.getByRole("button", { name: "Reopen" }).waitFor();

    // The owner sees it resolved, live, and dimmed on the page.
    await thread.getByText("Resolved", { exact: true }).waitFor();
    await desk.dialog.locator(".mark--point.mark--resolved .mark__number").waitFor();
    expect((await marksAs(owner.agent, messageId))[0]?.resolved).toBe(true);
    await desk.page.screenshot({ path: `${shots}/pdf-desktop-resolved.png` });
    await desk.page.context().close();
    await phone.page.context().close();
  }, 120_000);

  it("on an image: boxes through annotorious and points, internal marks only for the staff", async () => {
    const { owner, client, messageId } = await sentForApproval(
      "Banner.jpg",
      await photoJpeg(1200, 800),
    );
    const phone = await openViewer(client, clientPath(client), "Banner.jpg", PHONE);
    // annotorious's layer over the image (its own chunk, with the viewer).
    const drawing = phone.dialog.locator(".a9s-annotationlayer");
    await drawing.waitFor();
    await phone.dialog.getByRole("button", { name: "Add mark" }).click();
    await pointAt(phone.page, drawing, [0.2, 0.3], [0.6, 0.8]);
    await saveMark(phone.dialog, "Crop closer here");
    await phone.dialog.getByRole("button", { name: "All marks" }).click();
    await phone.dialog.getByRole("button", { name: "Add mark" }).click();
    await pointAt(phone.page, drawing, [0.75, 0.25]);
    await saveMark(phone.dialog, "Too dark");

    const [box, point] = (await marksAs(client.agent, messageId)) as [Mark, Mark];
    expect(box.comment).toBe("Crop closer here");
    expect(box.x).toBeCloseTo(0.2, 1);
    expect(box.y).toBeCloseTo(0.3, 1);
    expect(box.width).toBeCloseTo(0.4, 1);
    expect(box.height).toBeCloseTo(0.5, 1);
    expect(point).toMatchObject({ width: 0, height: 0, comment: "Too dark" });
    expect(point.x).toBeCloseTo(0.75, 1);

    // The owner sees both: the box drawn by annotorious, the point as a pin.
    const desk = await openViewer(owner, ownerPath(client), "Banner.jpg", DESKTOP);
    await expect.poll(() => listItems(desk.dialog).count()).toBe(2);
    await expect.poll(() => desk.dialog.locator(".a9s-annotation").count()).toBeGreaterThan(0);
    await desk.dialog.locator(".mark--point .mark__number").waitFor();
    // A click on the box opens its thread.
    const drawn = desk.dialog.locator(".a9s-annotationlayer");
    await pointAt(desk.page, drawn, [0.4, 0.55]);
    await desk.dialog
      .getByRole("article", { name: "Mark 1" })
      .getByText("Crop closer here")
      .waitFor();

    // An internal mark: marked as such for the staff, never shown to the client.
    await desk.dialog.getByRole("button", { name: "All marks" }).click();
    await desk.dialog.getByRole("button", { name: "Add mark" }).click();
    await pointAt(desk.page, drawn, [0.1, 0.1]);
    await saveMark(desk.dialog, "Check the licence of this photo", true);
    await desk.dialog
      .getByRole("article", { name: "Mark 3" })
      .getByText("Internal: only your team sees this")
      .waitFor();
    await desk.dialog.locator(".mark--internal .mark__number").waitFor();
    await desk.page.screenshot({ path: `${shots}/image-desktop-internal.png` });
    await expectNoSeriousAxeViolations(desk.page, "the image viewer with a thread, 1280 px");

    // The client's viewer refetches on the event, and still has two marks.
    await desk.dialog.getByRole("article", { name: "Mark 3" }).getByRole("textbox").fill("Done");
    await desk.dialog.getByRole("button", { name: "Send reply" }).click();
    const clientMarks = await marksAs(client.agent, messageId);
    expect(clientMarks.map((mark) => mark.comment)).toEqual(["Crop closer here", "Too dark"]);
    await phone.dialog.getByRole("button", { name: "All marks" }).click();
    expect(await listItems(phone.dialog).count()).toBe(2);
    await expect(phone.dialog.getByText("Check the licence of this photo").count()).resolves.toBe(
      0,
    );
    await phone.page.screenshot({ path: `${shots}/image-phone-list.png` });
    await expectNoSeriousAxeViolations(phone.page, "the image viewer with marks, 375 px");
    await desk.page.context().close();
    await phone.page.context().close();
  }, 120_000);

  it("by keyboard only: add a mark (Enter, arrow keys), Escape cancels, open a thread", async () => {
    const { owner, client, messageId } = await sentForApproval("Flyer.pdf", await proofPdf(2));
    const { page, dialog } = await openViewer(owner, ownerPath(client), "Flyer.pdf", DESKTOP);
    await dialog.locator("canvas[data-rendered]").waitFor();
    const tabTo = async (target: Locator) => {
      for (let step = 0; step < 30; step++) {
        if (await target.evaluate((element) => element === document.activeElement)) return;
        await page.keyboard.press("Tab");
      }
      throw new Error("Tab never reached the element");
    };

    // Escape leaves the mode, and the dialog stays open.
    await tabTo(dialog.getByRole("button", { name: "Add mark" }));
    await page.keyboard.press("Enter");
    await tabTo(dialog.getByRole("region", { name: /Flyer\.pdf, page 1 of 2/ }));
    await page.keyboard.press("Enter");
    await dialog.getByRole("form", { name: "New mark" }).waitFor();
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.getByRole("form", { name: "New mark" }).count()).toBe(0);
    await dialog.getByRole("button", { name: "Add mark", pressed: false }).waitFor();

    // Enter places a point in the middle, with the focus on it; arrow keys move it.
    await tabTo(dialog.getByRole("button", { name: "Add mark" }));
    await page.keyboard.press("Enter");
    await tabTo(dialog.getByRole("region", { name: /Flyer\.pdf, page 1 of 2/ }));
    await page.keyboard.press("Enter");
    const handle = dialog.getByRole("button", { name: /^New mark at/ });
    await expect
      .poll(() => handle.evaluate((element) => element === document.activeElement))
      .toBe(true);
    const before = await handle.getAttribute("aria-label");
    for (let step = 0; step < 5; step++) await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Shift+ArrowUp");
    expect(await handle.getAttribute("aria-label")).not.toBe(before);
    await tabTo(dialog.getByRole("textbox", { name: /Comment on this point/ }));
    await page.keyboard.type("Align the heading");
    await tabTo(dialog.getByRole("button", { name: "Save mark" }));
    await page.keyboard.press("Enter");
    const thread = dialog.getByRole("article", { name: "Mark 1" });
    await thread.getByText("Align the heading").waitFor();
    await page.screenshot({ path: `${shots}/keyboard-saved.png` });

    const [mark] = await marksAs(owner.agent, messageId);
    expect(mark?.width).toBe(0);
    // Five steps right of where Enter put it, five steps up (Shift: 5 %).
    expect(mark?.x).toBeGreaterThan(0.5);

    // Back in the list (the focus on its entry), Enter opens the thread again.
    await tabTo(thread.getByRole("button", { name: "All marks" }));
    await page.keyboard.press("Enter");
    const entry = listItems(dialog).filter({ hasText: "Align the heading" });
    await expect
      .poll(() => entry.evaluate((element) => element === document.activeElement))
      .toBe(true);
    await page.keyboard.press("Enter");
    await thread.waitFor();
    await dialog
      .getByRole("button", { name: /^Mark 1: Align the heading/, pressed: true })
      .waitFor();
    await expectNoSeriousAxeViolations(page, "the viewer after adding by keyboard");
    await page.context().close();
  }, 120_000);
});
