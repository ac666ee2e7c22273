import { describe, expect, it } from "vitest";
import { translateMessage } from "./translator";

describe("translateMessage", () => {
  it("writes number values as the reader writes numbers", () => {
    const text = "A client can have up to {{max}} contacts";
    expect(translateMessage("en", text, { max: 10_000 })).toBe(
      "A client can have up to 10,000 contacts",
    );
    expect(translateMessage("de", text, { max: 10_000 })).toBe(
      "Ein Kunde kann bis zu 10.000 Kontakte haben",
    );
    expect(translateMessage("pt-BR", text, { max: 10 })).toBe(
      "Um cliente pode ter até 10 contatos",
    );
  });

  it("leaves text values as they are", () => {
    expect(
      translateMessage("fr", "This invite is for {{email}}: sign in with that address", {
        email: "ana@example.test",
      }),
    ).toBe("Cette invitation est destinée à ana@example.test : connectez-vous avec cette adresse");
  });

  it("picks the plural form by count", () => {
    const text = "Too many attempts. Please try again in {{count}} minutes.";
    expect(translateMessage("en", text, { count: 1 })).toBe(
      "Too many attempts. Please try again in 1 minute.",
    );
    expect(translateMessage("en", text, { count: 15 })).toBe(
      "Too many attempts. Please try again in 15 minutes.",
    );
    expect(translateMessage("de", text, { count: 1 })).toBe(
      "Zu viele Versuche. Bitte versuchen Sie es in 1 Minute erneut.",
    );
    expect(translateMessage("es", text, { count: 15 })).toBe(
      "Demasiados intentos. Vuelva a intentarlo dentro de 15 minutos.",
    );
  });

  it("keeps an English text the catalog does not know", () => {
    expect(translateMessage("de", "Stripe says no")).toBe("Stripe says no");
  });
});
