import type { MenuItemConstructorOptions } from "electron";
import { describe, expect, it } from "vitest";
import { appMenuTemplate, createAppMenu, RESTART_TO_UPDATE } from "./app-menu";

type Item = MenuItemConstructorOptions;
const submenu = (menu: Item[], label: string) =>
  (menu.find((item) => item.label === label)?.submenu ?? []) as Item[];
const names = (items: Item[]) => items.map((item) => item.label ?? item.role ?? item.type);

function fakeMenu() {
  const applied: Item[][] = [];
  return {
    applied,
    Menu: {
      buildFromTemplate: (template: Item[]) => template,
      setApplicationMenu(menu: Item[] | null) {
        if (menu) applied.push(menu);
      },
    },
  };
}

describe("the application menu", () => {
  it("on Linux and Windows: File with Quit; editing, view and window roles; no developer tools when packaged", () => {
    let quits = 0;
    const menu = appMenuTemplate(
      { platform: "linux", productName: "ClientDesk", devTools: false, quit: () => quits++ },
      null,
    );
    expect(names(menu)).toEqual(["File", "Edit", "View", "Window"]);
    expect(names(submenu(menu, "File"))).toEqual(["Quit"]);
    submenu(menu, "File")[0]!.click!({} as never, undefined, {} as never);
    expect(quits).toBe(1);
    expect(names(submenu(menu, "Edit"))).toEqual(
      expect.arrayContaining(["copy", "paste", "cut", "selectAll", "undo", "redo"]),
    );
    expect(names(submenu(menu, "View"))).not.toContain("toggleDevTools");
    expect(names(submenu(menu, "View"))).not.toContain("reload");
  });

  it("on macOS: the app's own menu first, ending with Quit ClientDesk", () => {
    const menu = appMenuTemplate(
      { platform: "darwin", productName: "ClientDesk", devTools: true, quit: () => {} },
      null,
    );
    expect(names(menu)[0]).toBe("ClientDesk");
    expect(names(submenu(menu, "ClientDesk")).at(-1)).toBe("Quit ClientDesk");
    expect(names(submenu(menu, "View"))).toEqual(
      expect.arrayContaining(["reload", "toggleDevTools"]),
    );
  });

  it("adds Restart to update once an update is downloaded, and it installs", () => {
    const { applied, Menu } = fakeMenu();
    const appMenu = createAppMenu({
      Menu,
      platform: "win32",
      productName: "ClientDesk",
      devTools: false,
      quit: () => {},
    });
    expect(names(submenu(applied.at(-1)!, "File"))).toEqual(["Quit"]);
    let installs = 0;
    appMenu.showRestartToUpdate(() => installs++);
    const file = submenu(applied.at(-1)!, "File");
    expect(names(file)).toEqual([RESTART_TO_UPDATE, "separator", "Quit"]);
    file[0]!.click!({} as never, undefined, {} as never);
    expect(installs).toBe(1);
  });
});
