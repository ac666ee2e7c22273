/**
 * The tray icon: shows the window on click, a menu with Open and Quit (and "Restart to update"
 * once an update is downloaded), and the unread count in its tooltip (and in the dock/taskbar
 * badge where the platform has one).
 */
export interface TrayLike<MenuT> {
  setToolTip(text: string): void;
  setContextMenu(menu: MenuT): void;
  on(event: "click", listener: () => void): unknown;
  destroy(): void;
}

export interface MenuItemTemplate {
  label?: string;
  type?: "separator";
  click?: () => void;
}

/** `Image` and `MenuT` are Electron's NativeImage and Menu; tests use their own. */
export interface TrayOptions<Image, MenuT> {
  Tray: new (image: Image) => TrayLike<MenuT>;
  Menu: { buildFromTemplate(template: MenuItemTemplate[]): MenuT };
  nativeImage: {
    createFromPath(file: string): { resize(options: { width: number; height: number }): Image };
  };
  /** Sets the dock/taskbar badge (app.setBadgeCount); false where unsupported. */
  setBadgeCount: (count: number) => boolean;
  iconPath: string;
  productName: string;
  showWindow: () => void;
  quit: () => void;
}

export interface AppTray {
  setUnreadCount(count: number): void;
  /** Adds "Restart to update" to the menu; `install` quits, installs and restarts. */
  showRestartToUpdate(install: () => void): void;
  destroy(): void;
}

export function unreadTooltip(productName: string, count: number): string {
  if (count <= 0) return productName;
  return `${productName}: ${count === 1 ? "1 unread message" : `${count} unread messages`}`;
}

export function createTray<Image, MenuT>(options: TrayOptions<Image, MenuT>): AppTray {
  const image = options.nativeImage
    .createFromPath(options.iconPath)
    .resize({ width: 16, height: 16 });
  const tray = new options.Tray(image);
  tray.setToolTip(options.productName);
  tray.on("click", options.showWindow);
  let installUpdate: (() => void) | null = null;
  const menu = (count: number) =>
    options.Menu.buildFromTemplate([
      {
        label:
          count > 0
            ? `Open ${options.productName} (${count} unread)`
            : `Open ${options.productName}`,
        click: options.showWindow,
      },
      { type: "separator" },
      ...(installUpdate ? [{ label: "Restart to update", click: installUpdate }] : []),
      { label: "Quit", click: options.quit },
    ]);
  tray.setContextMenu(menu(0));
  let current = 0;
  return {
    showRestartToUpdate(install) {
      installUpdate = install;
      tray.setContextMenu(menu(current));
    },
    setUnreadCount(count) {
      if (count === current) return;
      current = count;
      tray.setToolTip(unreadTooltip(options.productName, count));
      tray.setContextMenu(menu(count));
      options.setBadgeCount(count);
    },
    destroy() {
      tray.destroy();
    },
  };
}
