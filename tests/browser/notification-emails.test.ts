import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient } from "../support/conversations";
import { testDatabase } from "../support/database";
import { signUpOwner } from "../support/factories";
import { expectValue, keepScreenshot, openPage } from "../support/page";
import type { TestClock } from "../support/clock";
import { type TestServer, startTestServer } from "../support/server";
import { linkIn } from "../support/smtp";
import { addTeamMember } from "../support/team";

describe.skipIf(!browserAvailable)("the links in unanswered-messages emails", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    // The sweep takes every due row of its database: a database of its own.
    [server, browser] = await Promise.all([
      testDatabase({ isolated: true }).then((db) => startTestServer({ db })),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await server?.db.destroy();
  });

  const pageAs = (agent: { cookieHeader: string }): Promise<Page> =>
    openPage(browser, server.url, agent);

  it("open the conversation and the delay setting, for the client and the owner", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    await owner.agent.post(`/api/clients/${client.id}/messages`, { content: "Draft is ready" });
    (server.clock as TestClock).advanceMinutes(5);
    await server.jobs.runOnce("unanswered-messages");
    const toClient = await server.smtp.waitFor(client.email, (mail) =>
      /new message/i.test(mail.subject),
    );

    const cp = await pageAs(client.agent);
    await cp.goto(linkIn(toClient, "Open the conversation"));
    await cp.getByRole("log").getByText("Draft is ready").waitFor();
    await cp.goto(linkIn(toClient, "Change the email delay"));
    await expect
      .poll(() => cp.getByRole("tab", { name: "Settings" }).getAttribute("aria-selected"))
      .toBe("true");

    await client.agent.post(`/api/clients/${client.id}/messages`, { content: "Looks great" });
    (server.clock as TestClock).advanceMinutes(5);
    await server.jobs.runOnce("unanswered-messages");
    const toOwner = await server.smtp.waitFor(owner.email, (mail) =>
      /new message/i.test(mail.subject),
    );

    const op = await pageAs(owner.agent);
    await op.goto(linkIn(toOwner, "Open the conversation"));
    await op.getByRole("log").getByText("Looks great").waitFor();
    await op.goto(linkIn(toOwner, "Change the email delay"));
    const dialog = op.getByRole("dialog");
    await expect
      .poll(() => dialog.getByRole("tab", { name: "Notifications" }).getAttribute("aria-selected"))
      .toBe("true");
    await expectValue(dialog.getByLabel("Notification delay (minutes)"), "5");
    await expect.poll(() => new URL(op.url()).search).toBe("");
  });
  it("tell a team's owner and members whose clients' emails they get (issue 26), on a phone too", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const member = await addTeamMember(server, owner, { fullName: "Mia Member" });
    const open = async (agent: { cookieHeader: string }, width: number) => {
      const page = await openPage(browser, server.url, agent, {
        viewport: { width, height: width < 500 ? 740 : 800 },
      });
      await page.goto("/?settings=notifications");
      return page.getByRole("dialog");
    };
    /** The dialog has finished opening (its fade), for a screenshot of what a person sees. */
    const settled = (dialog: ReturnType<Page["getByRole"]>) =>
      dialog
        .page()
        .evaluate(() =>
          Promise.all(document.getAnimations().map((animation) => animation.finished)),
        );

    const asMember = await open(member.agent, 360);
    await asMember
      .getByText(
        "In your team, you get these emails for the clients assigned to you. Once one of you answers, nobody else is emailed about it.",
      )
      .waitFor();
    await expectValue(asMember.getByLabel("Notification delay (minutes)"), "5");
    expect(
      await asMember.page().evaluate(() => document.documentElement.scrollWidth),
    ).toBeLessThanOrEqual(360);
    await settled(asMember);
    await keepScreenshot(asMember.page(), "notifications-tab-team-member");

    const asOwner = await open(owner.agent, 1280);
    await asOwner
      .getByText(
        "In your team, the people assigned to a client get these emails; you get them for clients no one is assigned to.",
        { exact: false },
      )
      .waitFor();
    await settled(asOwner);
    await keepScreenshot(asOwner.page(), "notifications-tab-team-owner");
  });
});
