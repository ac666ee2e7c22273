import { describe, expect, it } from "vitest";
import { closestLanguage, negotiateLanguage } from "./languages";
import { pseudoLong, pseudoRtl } from "./pseudo";

describe("negotiateLanguage (Accept-Language)", () => {
  it("takes the best supported language in quality order", () => {
    expect(negotiateLanguage("fr-CA,fr;q=0.9,en;q=0.8")).toBe("fr");
    expect(negotiateLanguage("ja,de;q=0.5,en;q=0.7")).toBe("en");
    expect(negotiateLanguage("pt-PT,pt;q=0.9")).toBe("pt-BR");
    expect(negotiateLanguage("pt-br")).toBe("pt-BR");
    expect(negotiateLanguage("de-AT")).toBe("de");
  });

  it("says null when nothing supported is asked for", () => {
    expect(negotiateLanguage(undefined)).toBeNull();
    expect(negotiateLanguage("")).toBeNull();
    expect(negotiateLanguage("ja,zh;q=0.8")).toBeNull();
    expect(negotiateLanguage("*")).toBeNull();
    expect(negotiateLanguage("de;q=0")).toBeNull();
  });

  it("maps a single tag to the closest language", () => {
    expect(closestLanguage("es-MX")).toBe("es");
    expect(closestLanguage("EN-us")).toBe("en");
    expect(closestLanguage("it")).toBeNull();
  });
});

describe("pseudo-locales", () => {
  it("accents letters, keeps Trans tags and makes the text 40% longer", () => {
    const text = "Send the <1>file</1> now";
    const long = pseudoLong(text);
    expect(long.startsWith("Šéñð ţĥé <1>ƒíļé</1> ñóŵ ")).toBe(true);
    expect(long.length).toBeGreaterThanOrEqual(Math.round(text.length * 1.4));
    expect(pseudoLong("Powered by <strong>ClientDesk</strong>")).toMatch(
      /^Þóŵéŕéð ƀý <strong>ÇļíéñţÐéšķ<\/strong> ~/,
    );
  });

  it("writes right to left with an override that ends with the text", () => {
    expect(pseudoRtl("Attachments")).toBe("\u202eAttachments\u202c");
    expect(pseudoRtl(" ")).toBe(" ");
  });
});
