import http from "node:http";
import type { AddressInfo } from "node:net";
import Koa from "koa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRouter, mountRoutes } from "./router";

/** A bare Koa app with two areas, to check the routing rules on their own. */
describe("mountRoutes", () => {
  let server: http.Server;
  let base: string;
  const calls: string[] = [];

  beforeAll(async () => {
    const items = createRouter("/api/items");
    items.use(async (ctx, next) => {
      calls.push(`area:${ctx.path}`);
      await next();
    });
    items.get("/", (ctx) => {
      ctx.body = { list: true };
    });
    items.get("/:id", (ctx) => {
      ctx.body = { id: ctx.params.id };
    });
    items.get("/latest", (ctx) => {
      ctx.body = { latest: true };
    });
    items.delete("/:id", (ctx) => {
      ctx.status = 204;
    });
    const other = createRouter();
    other.post("/api/other/:a/and/:b", (ctx) => {
      calls.push("other");
      ctx.body = { a: ctx.params.a, b: ctx.params.b };
    });

    const app = new Koa();
    app.use(mountRoutes([items, other]) as Koa.Middleware);
    app.use((ctx) => {
      ctx.status = 404;
      ctx.body = { fellThrough: ctx.path };
    });
    server = http.createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const call = async (method: string, path: string) => {
    const response = await fetch(`${base}${path}`, { method });
    const text = await response.text();
    return { status: response.status, allow: response.headers.get("allow"), body: text && JSON.parse(text) };
  };

  it("matches static paths before parametric ones, whatever the order they were added in", async () => {
    expect(await call("GET", "/api/items/latest")).toMatchObject({ status: 200, body: { latest: true } });
    expect(await call("GET", "/api/items/42")).toMatchObject({ status: 200, body: { id: "42" } });
    expect(await call("GET", "/api/items")).toMatchObject({ status: 200, body: { list: true } });
    expect(await call("GET", "/api/items/")).toMatchObject({ status: 200, body: { list: true } });
  });

  it("decodes parameters and takes several", async () => {
    expect(await call("GET", "/api/items/caf%C3%A9%20au%20lait")).toMatchObject({
      body: { id: "café au lait" },
    });
    expect(await call("POST", "/api/other/x/and/y")).toMatchObject({ body: { a: "x", b: "y" } });
  });

  it("runs an area's shared middleware before its routes only", async () => {
    calls.length = 0;
    await call("GET", "/api/items/7");
    await call("POST", "/api/other/1/and/2");
    expect(calls).toEqual(["area:/api/items/7", "other"]);
  });

  it("answers HEAD for GET routes, 405 with Allow for other methods, 204 to OPTIONS", async () => {
    const head = await fetch(`${base}/api/items/7`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect(await call("PATCH", "/api/items/7")).toEqual({
      status: 405,
      allow: "GET, HEAD, DELETE",
      body: { message: "PATCH is not allowed here" },
    });
    expect(await call("OPTIONS", "/api/items/7")).toMatchObject({ status: 204, allow: "GET, HEAD, DELETE" });
  });

  it("passes unknown paths and malformed encodings on to the next middleware", async () => {
    expect(await call("GET", "/api/nothing/here")).toMatchObject({ status: 404, body: { fellThrough: "/api/nothing/here" } });
    expect(await call("GET", "/api/items/%E0%A4%A")).toMatchObject({ status: 404 });
    expect(await call("GET", "/somewhere/else")).toMatchObject({ body: { fellThrough: "/somewhere/else" } });
  });

  it("refuses two routes of the same method and path, and shared middleware after routes", () => {
    const first = createRouter("/x");
    first.get("/:id", () => undefined);
    const second = createRouter("/x");
    second.get("/:id", () => undefined);
    expect(() => mountRoutes([first, second])).toThrow();
    expect(() => first.use(() => undefined)).toThrow("before the routes");
  });
});
