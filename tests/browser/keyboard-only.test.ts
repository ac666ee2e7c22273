import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { minimalPdf } from "../support/pdf";
import { addJoinedClient } from "../support/conversations";
import { signUpOwner } from "../support/factories";
import { expectToast, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

/** Set SCREENSHOT_DIR to keep screenshots of focused controls. */
const screenshotDir = process.env.SCREENSHOT_DIR;

/** How the focused element shows its focus: its :focus-visible outline. */
interface FocusLook {
  description: string;
  focusVisible: boolean;
  outlineStyle: string;
  outlineWidth: number;
}

const focusLook = (page: Page): Promise<FocusLook | null> =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return null;
    const style = getComputedStyle(element);
    const name =
      element.getAttribute("aria-label") ?? element.textContent?.trim().slice(0, 40) ?? "";
    return {
      description: `<${element.tagName.toLowerCase()}> ${name}`,
      // A date field's keyboard focus is on its parts (day, month, year), inside the field:
      // the field shows the outline while focus is within it (theme.css).
      focusVisible:
        element.matches(":focus-visible") || element.matches('input[type="date"]:focus-within'),
      outlineStyle: style.outlineStyle,
      outlineWidth: Number.parseFloat(style.outlineWidth),
    };
  });

/** Every element reached by the keyboard must show a solid :focus-visible outline. */
function expectVisibleFocus(look: FocusLook | null) {
  if (!look) return;
  expect(look, `focus is not visible on ${look.description}`).toMatchObject({
    focusVisible: true,
    outlineStyle: "solid",
  });
  expect(look.outlineWidth, `outline width on ${look.description}`).toBeGreaterThanOrEqual(2);
}

/**
 * Presses Tab (or Shift+Tab) until `target` has the focus, checking on the way that each
 * focused element shows it. Fails after `limit` presses.
 */
async function tabTo(
  page: Page,
  target: Locator,
  options: { backwards?: boolean; limit?: number } = {},
) {
  const { backwards = false, limit = 40 } = options;
  for (let presses = 0; presses < limit; presses += 1) {
    await page.keyboard.press(backwards ? "Shift+Tab" : "Tab");
    expectVisibleFocus(await focusLook(page));
    const focused = await target
      .evaluate((element) => element === document.activeElement)
      .catch(() => false);
    if (focused) return;
  }
  throw new Error(`${limit} presses of ${backwards ? "Shift+Tab" : "Tab"} did not reach ${target}`);
}

describe.skipIf(!browserAvailable)("keyboard only: no mouse from start to finish", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("an owner opens a conversation, sends a message and uploads a file; the client hears it and approves the file", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    const op = await openPage(browser, server.url, owner.agent, {
      viewport: { width: 1280, height: 860 },
      defaultTimeout: 10_000,
    });
    // Adding a "filechooser" listener turns on interception without waiting for it
    // (playwright-core's _updateSubscription): one from the start, so that the Enter that
    // opens the chooser later cannot outrun it.
    op.on("filechooser", () => undefined);
    const cp = await openPage(browser, server.url, client.agent, {
      viewport: { width: 375, height: 667 },
      defaultTimeout: 10_000,
    });
    await cp.goto(`/client/${client.id}`);
    await cp.getByRole("log").getByText("No messages yet").waitFor();

    // The owner opens the client's conversation from the client list.
    await op.goto("/");
    await op.getByRole("heading", { name: "Let's keep it simple." }).waitFor();
    await tabTo(
      op,
      op.getByRole("navigation", { name: "Clients" }).getByRole("link", { name: /Carla Client/ }),
    );
    if (screenshotDir) await op.screenshot({ path: `${screenshotDir}/keyboard-client-link.png` });
    await op.keyboard.press("Enter");
    const log = op.getByRole("log", { name: "Messages with Carla Client" });
    await log.getByText("No messages yet").waitFor();

    // Types a message in the composer and sends it with Enter.
    const composer = op.getByRole("textbox", { name: "Message", exact: true });
    if (!(await composer.evaluate((element) => element === document.activeElement))) {
      await tabTo(op, composer);
    }
    await op.keyboard.type("Here is the brief for your review.");
    if (screenshotDir) await op.screenshot({ path: `${screenshotDir}/keyboard-composer.png` });
    await op.keyboard.press("Enter");
    await log.getByText("Here is the brief for your review.").waitFor();
    // Your own message is not read back to you.
    const ownerStatus = op
      .getByRole("region", { name: "Conversation with Carla Client" })
      .getByRole("status");
    expect(await ownerStatus.textContent()).toBe("");

    // The client's screen reader hears it: the polite status says who wrote what.
    const clientStatus = cp.getByRole("status").filter({ hasText: "New message from" });
    await expect
      .poll(() => clientStatus.textContent())
      .toBe("New message from Olivia Owner: Here is the brief for your review.");
    expect(await clientStatus.getAttribute("aria-live")).toBe("polite");

    // Upload File: Shift+Tab back to the button, Enter opens the dialog.
    const uploadButton = op.getByRole("button", { name: "Upload File" });
    await tabTo(op, uploadButton, { backwards: true });
    await op.keyboard.press("Enter");
    const dialog = op.getByRole("dialog", { name: "Upload File" });
    await dialog.waitFor();

    // The drop zone opens the file chooser from the keyboard.
    const zone = dialog.getByRole("button", { name: /Drag a file here or click to browse/ });
    await tabTo(op, zone);
    if (screenshotDir) await op.screenshot({ path: `${screenshotDir}/keyboard-upload-zone.png` });
    const chooser = op.waitForEvent("filechooser");
    await op.keyboard.press("Enter");
    await (await chooser).setFiles({
      name: "Brief.pdf",
      mimeType: "application/pdf",
      buffer: minimalPdf(),
    });
    await dialog.getByText("Brief.pdf").waitFor();

    // Requires feedback with Space, then Upload with Enter.
    const feedback = dialog.getByRole("checkbox", { name: /Requires feedback/ });
    await tabTo(op, feedback);
    await op.keyboard.press("Space");
    expect(await feedback.isChecked()).toBe(true);
    await tabTo(op, dialog.getByRole("button", { name: "Upload", exact: true }));
    await op.keyboard.press("Enter");
    await expectToast(op, "File uploaded successfully");
    await dialog.waitFor({ state: "detached" });
    await log.getByText("Feedback Required").waitFor();

    // The client, on a phone, approves the file with the keyboard.
    await expect
      .poll(() => clientStatus.textContent())
      .toBe("New message from Olivia Owner: sent a file, Brief.pdf");
    const approve = cp.getByRole("log").getByRole("button", { name: "Approve" });
    await approve.waitFor();
    // On the way: the tabs and the message history (a scrollable region, focusable to scroll).
    await tabTo(cp, cp.getByRole("tab", { name: "Conversation" }));
    if (screenshotDir) await cp.screenshot({ path: `${screenshotDir}/keyboard-tab.png` });
    await tabTo(cp, cp.getByRole("log"));
    if (screenshotDir) await cp.screenshot({ path: `${screenshotDir}/keyboard-log.png` });
    await tabTo(cp, approve);
    if (screenshotDir) await cp.screenshot({ path: `${screenshotDir}/keyboard-approve.png` });
    await cp.keyboard.press("Enter");
    await expectToast(cp, "Feedback submitted successfully");
    await op.getByRole("log").getByText("Approved", { exact: true }).first().waitFor();
  });
});
