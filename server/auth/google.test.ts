import { describe, expect, it } from "vitest";
import { allowsPlainHttp, startGoogleSignIn } from "./google";

const google = (issuer: string) => ({ clientId: "id", clientSecret: "secret", issuer });

describe("plain http to the issuer", () => {
  it("is allowed only on this machine", () => {
    for (const issuer of ["http://127.0.0.1:4000", "http://localhost:4000", "http://[::1]:4000"]) {
      expect(allowsPlainHttp(new URL(issuer)), issuer).toBe(true);
    }
    for (const issuer of [
      "https://accounts.google.com",
      "https://127.0.0.1:4000",
      "http://accounts.google.com",
      "http://10.0.0.1",
      "http://127.0.0.1.example.com",
    ]) {
      expect(allowsPlainHttp(new URL(issuer)), issuer).toBe(false);
    }
  });

  it("is refused by openid-client before any request to an issuer elsewhere", async () => {
    await expect(
      startGoogleSignIn(google("http://issuer.invalid"), "http://app/callback", new Date()),
    ).rejects.toThrow("only requests to HTTPS are allowed");
  });
});
