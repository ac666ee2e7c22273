import type { MenuItemConstructorOptions } from "electron";

/**
 * The application menu (the macOS menu bar, the window's menu bar on Windows and Linux).
 * Electron's default menu offers Reload and developer tools; this one keeps the standard
 * editing, view and window roles (so copy and paste shortcuts work on macOS), developer items
 * only when unpackaged, and "Restart to update" once an update is downloaded (updater.ts).
 */
export interface AppMenuOptions<MenuT> {
  Menu: {
    buildFromTemplate(template: MenuItemConstructorOptions[]): MenuT;
    setApplicationMenu(menu: MenuT | null): void;
  };
  platform: NodeJS.Platform;
  productName: string;
  /** Reload and developer tools: only in an unpackaged app. */
  devTools: boolean;
  quit: () => void;
}

export interface AppMenu {
  /** Adds "Restart to update"; `install` quits, installs and restarts. */
  showRestartToUpdate(install: () => void): void;
}

export const RESTART_TO_UPDATE = "Restart to update";

export function appMenuTemplate(
  options: Omit<AppMenuOptions<unknown>, "Menu">,
  installUpdate: (() => void) | null,
): MenuItemConstructorOptions[] {
  const mac = options.platform === "darwin";
  const update: MenuItemConstructorOptions[] = installUpdate
    ? [{ label: RESTART_TO_UPDATE, click: installUpdate }, { type: "separator" }]
    : [];
  const quit: MenuItemConstructorOptions = {
    label: mac ? `Quit ${options.productName}` : "Quit",
    accelerator: "CmdOrCtrl+Q",
    click: options.quit,
  };
  const first: MenuItemConstructorOptions = mac
    ? {
        label: options.productName,
        submenu: [
          { role: "about" },
          { type: "separator" },
          ...update,
          { role: "hide" },
          { role: "hideOthers" },
          { role: "unhide" },
          { type: "separator" },
          quit,
        ],
      }
    : { label: "File", submenu: [...update, quit] };
  const developer: MenuItemConstructorOptions[] = options.devTools
    ? [{ role: "reload" }, { role: "toggleDevTools" }, { type: "separator" }]
    : [];
  return [
    first,
    {
      label: "Edit",
      submenu: [
        { role: "undo" },
        { role: "redo" },
        { type: "separator" },
        { role: "cut" },
        { role: "copy" },
        { role: "paste" },
        { role: "selectAll" },
      ],
    },
    {
      label: "View",
      submenu: [
        ...developer,
        { role: "resetZoom" },
        { role: "zoomIn" },
        { role: "zoomOut" },
        { type: "separator" },
        { role: "togglefullscreen" },
      ],
    },
    {
      label: "Window",
      submenu: mac
        ? [{ role: "minimize" }, { role: "zoom" }, { type: "separator" }, { role: "front" }]
        : [{ role: "minimize" }, { role: "close" }],
    },
  ];
}

export function createAppMenu<MenuT>(options: AppMenuOptions<MenuT>): AppMenu {
  const apply = (installUpdate: (() => void) | null) =>
    options.Menu.setApplicationMenu(
      options.Menu.buildFromTemplate(appMenuTemplate(options, installUpdate)),
    );
  apply(null);
  return { showRestartToUpdate: (install) => apply(install) };
}
