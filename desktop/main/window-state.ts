import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

/** The main window's size and place, restored at the next start (not a secret). */
export interface WindowBounds {
  width: number;
  height: number;
  x?: number;
  y?: number;
  maximized: boolean;
}

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const DEFAULT_BOUNDS: WindowBounds = { width: 1200, height: 800, maximized: false };
export const MIN_WIDTH = 800;
export const MIN_HEIGHT = 560;

const boundsSchema = z.object({
  width: z.number().int().min(MIN_WIDTH).max(20_000),
  height: z.number().int().min(MIN_HEIGHT).max(20_000),
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  maximized: z.boolean().default(false),
});

/** Whether a window at `bounds` would show at least a 100x50 corner on one of the screens. */
function isOnScreen(bounds: WindowBounds, workAreas: Rectangle[]): boolean {
  if (bounds.x === undefined || bounds.y === undefined) return false;
  const { x, y } = bounds;
  return workAreas.some(
    (area) =>
      x + 100 <= area.x + area.width &&
      x + bounds.width >= area.x + 100 &&
      y >= area.y &&
      y + 50 <= area.y + area.height,
  );
}

/** The saved bounds, or the defaults; a position off every screen is dropped (centred). */
export function restoreBounds(saved: unknown, workAreas: Rectangle[]): WindowBounds {
  const parsed = boundsSchema.safeParse(saved);
  if (!parsed.success) return { ...DEFAULT_BOUNDS };
  const bounds = parsed.data;
  if (isOnScreen(bounds, workAreas)) return bounds;
  return { width: bounds.width, height: bounds.height, maximized: bounds.maximized };
}

export interface WindowStateFile {
  load(workAreas: Rectangle[]): WindowBounds;
  save(bounds: WindowBounds): void;
}

export function windowStateFile(userDataDir: string): WindowStateFile {
  const file = path.join(userDataDir, "window-state.json");
  return {
    load(workAreas) {
      try {
        return restoreBounds(JSON.parse(readFileSync(file, "utf8")), workAreas);
      } catch {
        return { ...DEFAULT_BOUNDS };
      }
    },
    save(bounds) {
      try {
        mkdirSync(userDataDir, { recursive: true });
        writeFileSync(file, JSON.stringify(bounds));
      } catch {
        // Not worth failing a quit over.
      }
    },
  };
}
