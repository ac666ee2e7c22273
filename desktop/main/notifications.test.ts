import { describe, expect, it } from "vitest";
import { createFakeElectron } from "../test/fake-electron";
import { createNotifier } from "./notifications";

function setup() {
  const fake = createFakeElectron();
  const focused: string[] = [];
  const opened: string[] = [];
  const notifier = createNotifier({
    Notification: fake.electron.Notification,
    focusWindow: () => focused.push("focus"),
    openConversation: (clientId) => opened.push(clientId),
  });
  return { fake, notifier, focused, opened };
}

describe("notifications", () => {
  it("are built in main from plain strings", () => {
    const { fake, notifier } = setup();
    notifier.show({ title: "Acme Co", body: "New message", clientId: "c1" });
    expect(fake.notifications).toHaveLength(1);
    expect(fake.notifications[0]!.options).toEqual({ title: "Acme Co", body: "New message" });
    expect(fake.notifications[0]!.shown).toBe(true);
  });

  it("focus the window and open that conversation on click", () => {
    const { fake, notifier, focused, opened } = setup();
    notifier.show({ title: "Acme Co", body: "New message", clientId: "c1" });
    fake.notifications[0]!.emit("click");
    expect(focused).toEqual(["focus"]);
    expect(opened).toEqual(["c1"]);
  });

  it("only focus the window when no conversation is named", () => {
    const { fake, notifier, focused, opened } = setup();
    notifier.show({ title: "ClientDesk", body: "Welcome back" });
    fake.notifications[0]!.emit("click");
    expect(focused).toEqual(["focus"]);
    expect(opened).toEqual([]);
  });

  it("show nothing where the system has no notifications", () => {
    const { fake, notifier } = setup();
    fake.Notification.supported = false;
    notifier.show({ title: "x", body: "y" });
    expect(fake.notifications).toHaveLength(0);
  });
});
