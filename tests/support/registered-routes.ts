import { readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const ROUTES_DIR = path.resolve("server/routes");

/** A route file's @koa/router: its layers (area middleware has no methods). */
interface RouterLike {
  stack?: { methods: string[]; path: string }[];
}

/**
 * Every route the server registers, as `METHOD /path/:param`, read from the default export of
 * each module under server/routes/ (HEAD, which GET answers too, is left out).
 */
export async function registeredRoutes(): Promise<string[]> {
  const files = readdirSync(ROUTES_DIR, { recursive: true, encoding: "utf8" }).filter(
    (file) => file.endsWith(".ts") && !file.endsWith(".test.ts"),
  );
  const routes = new Set<string>();
  for (const file of files) {
    const module = await import(pathToFileURL(path.join(ROUTES_DIR, file)).href);
    const router = module.default as RouterLike | undefined;
    for (const layer of router?.stack ?? [])
      for (const method of layer.methods)
        if (method !== "HEAD") routes.add(`${method} ${layer.path}`);
  }
  return [...routes].sort();
}
