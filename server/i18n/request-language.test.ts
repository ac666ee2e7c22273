import { describe, expect, it } from "vitest";
import type { AppContext } from "../context";
import type { User } from "../models";
import { requestLanguage } from "./request-language";

/** A request as requestLanguage reads it: its signed-in user and its Accept-Language. */
function request(user: Partial<User> | undefined, acceptLanguage = ""): AppContext {
  return {
    state: { user },
    get: (name: string) => (name.toLowerCase() === "accept-language" ? acceptLanguage : ""),
  } as unknown as AppContext;
}

describe("requestLanguage: the language of a request's {message}", () => {
  it("is a contact's client's (else workspace's) until they pick, whatever their browser asks", () => {
    const contact = { role: "client" as const, language: null, defaultLanguage: "fr" as const };
    expect(requestLanguage(request(contact, "de-DE"))).toBe("fr");
    expect(requestLanguage(request({ ...contact, language: "es" }, "de-DE"))).toBe("es");
  });

  it("is a staff member's pick, else their browser's, else the workspace's", () => {
    const staff = { role: "owner" as const, language: null, defaultLanguage: "pt-BR" as const };
    expect(requestLanguage(request({ ...staff, language: "fr" }, "de"))).toBe("fr");
    expect(requestLanguage(request(staff, "de-AT,de;q=0.9"))).toBe("de");
    expect(requestLanguage(request(staff, "it, *"))).toBe("pt-BR");
  });

  it("is the browser's for nobody signed in, else English; kept once known", () => {
    expect(requestLanguage(request(undefined, "es-MX"))).toBe("es");
    expect(requestLanguage(request(undefined, "ja"))).toBe("en");
    const ctx = request({ role: "owner", language: "de" });
    expect(requestLanguage(ctx)).toBe("de");
    expect(ctx.state.language).toBe("de");
  });
});
