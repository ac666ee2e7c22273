import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient } from "../support/conversations";
import { testDatabase } from "../support/database";
import { signUpOwner } from "../support/factories";
import { expectValue, openPage } from "../support/page";
import type { TestClock } from "../support/clock";
import { type TestServer, startTestServer } from "../support/server";
import { linkIn } from "../support/smtp";

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
});
