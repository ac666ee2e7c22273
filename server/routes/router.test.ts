import http from "node:http";
import type { AddressInfo } from "node:net";
import { Router } from "@koa/router";
import Koa from "koa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { presentMethodNotAllowed } from "../middlewares/errors";
import type { AreaRouter } from "./area-router";
import { FALLS_THROUGH, mountRoutes } from "./mount-routes";

/** A bare Koa app with two areas, to check the routing rules on their own. */
describe("mountRoutes", () => {
  let server: http.Server;
  let base: string;
  const calls: string[] = [];

  beforeAll(async () => {
    const items: AreaRouter = new Router({ prefix: "/api/items" });
    items.use(async (ctx, next) => {
      calls.push(`area:${ctx.path}`);
      await next();
    });
    items.get("/", (ctx) => {
      ctx.body = { list: true };
    });
    items.get("/latest", (ctx) => {
      ctx.body = { latest: true };
    });
    items.get("/:id", (ctx) => {
      ctx.body = { id: ctx.params.id };
    });
    items.delete("/:id", (ctx) => {
      ctx.status = 204;
    });
    const other: AreaRouter = new Router();
    other.post("/api/other/:a/and/:b", (ctx) => {
      calls.push("other");
      ctx.body = { a: ctx.params.a, b: ctx.params.b };
    });

    const app = new Koa();
    // As the request frame does after the routes: a body for a bare 404, and for a 405.
    app.use(async (ctx, next) => {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        ctx.status = 404;
        ctx.body = { fellThrough: ctx.path };
      }
      presentMethodNotAllowed(ctx as never);
    });
    mountRoutes(app, [items, other]);
    app.use(() => {
      calls.push("next");
    });
    server = http.createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const call = async (method: string, path: string) => {
    const response = await fetch(`${base}${path}`, { method });
    const text = await response.text();
    return {
      status: response.status,
      allow: response.headers.get("allow"),
      body: text && JSON.parse(text),
    };
  };

  it("matches a static path added before a parametric one, with or without a trailing slash", async () => {
    expect(await call("GET", "/api/items/latest")).toMatchObject({
      status: 200,
      body: { latest: true },
    });
    expect(await call("GET", "/api/items/42")).toMatchObject({ status: 200, body: { id: "42" } });
    expect(await call("GET", "/api/items")).toMatchObject({ status: 200, body: { list: true } });
    expect(await call("GET", "/api/items/")).toMatchObject({ status: 200, body: { list: true } });
    expect(await call("GET", "/api/items/42/")).toMatchObject({ status: 200, body: { id: "42" } });
  });

  it("decodes parameters, takes several, and long ones", async () => {
    expect(await call("GET", "/api/items/caf%C3%A9%20au%20lait")).toMatchObject({
      body: { id: "café au lait" },
    });
    expect(await call("POST", "/api/other/x/and/y")).toMatchObject({ body: { a: "x", b: "y" } });
    const long = "t".repeat(2048);
    expect(await call("GET", `/api/items/${long}`)).toMatchObject({
      status: 200,
      body: { id: long },
    });
  });

  it("runs an area's shared middleware before its routes only", async () => {
    calls.length = 0;
    await call("GET", "/api/items/7");
    await call("POST", "/api/other/1/and/2");
    expect(calls).toEqual(["area:/api/items/7", "other"]);
  });

  it("answers HEAD for GET routes, 405 with Allow for other methods, Allow to OPTIONS", async () => {
    const head = await fetch(`${base}/api/items/7`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect(await call("PATCH", "/api/items/7")).toEqual({
      status: 405,
      allow: "HEAD, GET, DELETE",
      body: { message: "PATCH is not allowed here" },
    });
    expect(await call("OPTIONS", "/api/items/7")).toMatchObject({
      status: 200,
      allow: "HEAD, GET, DELETE",
    });
  });

  it("passes unknown paths on to the next middleware", async () => {
    calls.length = 0;
    expect(await call("GET", "/api/nothing/here")).toMatchObject({
      status: 404,
      body: { fellThrough: "/api/nothing/here" },
    });
    expect(await call("GET", "/somewhere/else")).toMatchObject({
      body: { fellThrough: "/somewhere/else" },
    });
    expect(calls).toEqual(["next", "next"]);
  });

  it("does not crash on a malformed percent-escape (the request frame answers those 400 first)", async () => {
    expect(await call("GET", "/api/items/%E0%A4%A")).toMatchObject({
      status: 200,
      body: { id: "%E0%A4%A" },
    });
  });

  it("refuses at start-up two routes of the same method and path, a static path after a parametric one, and use() after routes", () => {
    const mount = (...areas: AreaRouter[]) => mountRoutes(new Koa(), areas);
    const first: AreaRouter = new Router({ prefix: "/x" });
    first.get("/:id", () => undefined);
    const second: AreaRouter = new Router({ prefix: "/x" });
    second.get("/:id", () => undefined);
    expect(() => mount(first, second)).toThrow("never reached");
    const shadowed: AreaRouter = new Router({ prefix: "/x" });
    shadowed.get("/latest", () => undefined);
    expect(() => mount(first, shadowed)).toThrow(
      "GET /x/latest is never reached: /x/:id answers it first",
    );
    // A route that hands the ids it does not answer to the next area is not in the way.
    const fallsThrough: AreaRouter = new Router({ prefix: "/x" });
    fallsThrough.get(FALLS_THROUGH, "/:id", (_ctx, next) => next());
    expect(() => mount(fallsThrough, second)).not.toThrow();
    const otherMethod: AreaRouter = new Router({ prefix: "/x" });
    otherMethod.delete("/:id", () => undefined);
    expect(() => mount(first, otherMethod)).not.toThrow();
    first.use(() => undefined);
    expect(() => mount(first)).toThrow("before the routes");
  });
});
