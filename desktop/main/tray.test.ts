import { describe, expect, it } from "vitest";
import { createFakeElectron } from "../test/fake-electron";
import { createTray, unreadTooltip } from "./tray";

describe("tray", () => {
  it("shows the window on click and the unread count in its tooltip and the badge", () => {
    const fake = createFakeElectron();
    let shown = 0;
    let quit = 0;
    const tray = createTray({
      Tray: fake.Tray,
      Menu: fake.Menu,
      nativeImage: fake.nativeImage,
      setBadgeCount: (count) => fake.app.setBadgeCount(count),
      iconPath: "/icon.png",
      productName: "ClientDesk",
      showWindow: () => shown++,
      quit: () => quit++,
    });
    const fakeTray = fake.trays[0]!;
    expect(fakeTray.tooltip).toBe("ClientDesk");
    fakeTray.emit("click");
    expect(shown).toBe(1);

    tray.setUnreadCount(3);
    expect(fakeTray.tooltip).toBe("ClientDesk: 3 unread messages");
    expect(fake.app.badgeCount).toBe(3);
    const menu = fakeTray.menu as { template: { label?: string; click?: () => void }[] };
    expect(menu.template[0]!.label).toBe("Open ClientDesk (3 unread)");
    menu.template.find((item) => item.label === "Quit")!.click!();
    expect(quit).toBe(1);

    tray.setUnreadCount(0);
    expect(fakeTray.tooltip).toBe("ClientDesk");
    expect(fake.app.badgeCount).toBe(0);
  });

  it("words the tooltip", () => {
    expect(unreadTooltip("ClientDesk", 1)).toBe("ClientDesk: 1 unread message");
  });
});
