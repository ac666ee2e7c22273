import { describe, expect, it } from "vitest";
import { matchPortalRoute } from "./portal-location";

describe("matchPortalRoute", () => {
  it("names the portal's pages with their decoded parameter and query", () => {
    expect(matchPortalRoute("/client/abc-123", "?tab=settings")).toMatchObject({
      page: "client",
      clientId: "abc-123",
    });
    expect(matchPortalRoute("/client/abc-123", "?tab=settings").searchParams.get("tab")).toBe(
      "settings",
    );
    expect(matchPortalRoute("/invite/tok%2Den_1", "")).toMatchObject({
      page: "invite",
      token: "tok-en_1",
    });
    expect(matchPortalRoute("/client/sign-in", "?token=x")).toMatchObject({ page: "sign-in" });
    expect(matchPortalRoute("/client/signed-out", "")).toMatchObject({ page: "signed-out" });
    expect(matchPortalRoute("/client/abc/", "")).toMatchObject({ page: "client", clientId: "abc" });
    expect(matchPortalRoute("/client/feedback/Ab_c-1", "")).toMatchObject({
      page: "feedback",
      token: "Ab_c-1",
    });
  });

  it("leaves everything else to the client page without a parameter", () => {
    for (const path of [
      "/invite",
      "/client",
      "/client/a/b",
      "/client/feedback/a/b",
      "/invite/%E0%A4%A",
      "/elsewhere",
    ]) {
      const route = matchPortalRoute(path, "?code=SHORT");
      expect(route).toMatchObject({ page: "other" });
      expect(route.clientId ?? route.token).toBeUndefined();
    }
    expect(matchPortalRoute("/client", "?code=SHORT").searchParams.get("code")).toBe("SHORT");
  });
});
