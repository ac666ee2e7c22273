import i18next from "i18next";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import de from "../../../shared/locales/de/settings.json";
import en from "../../../shared/locales/en/settings.json";
import { type AuditEntry, describeAuditAction } from "../../../shared/schemas/audit";
import { AuditSentence } from "./audit-sentence";

async function instance(language: "en" | "de") {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng: language,
    resources: { en: { settings: en }, de: { settings: de } },
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
  });
  return i18n;
}

const render = (i18n: Awaited<ReturnType<typeof instance>>, entry: AuditEntry) =>
  renderToStaticMarkup(
    createElement(I18nextProvider, { i18n }, createElement(AuditSentence, { entry })),
  );

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, "")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&#x27;", "'")
    .replaceAll("&quot;", '"')
    .replaceAll("&amp;", "&");

const entry = (action: string, details: Record<string, unknown> = {}): AuditEntry => ({
  id: action,
  at: "2026-12-07T05:00:00.000Z",
  actorName: "Olga Owner",
  action,
  subjectLabel: "Acme Corp",
  details,
});

// Every sentence the log can hold: the English the settings show must be the CSV's.
const ENTRIES = [
  entry("member.invited", { role: "member" }),
  entry("member.invited", { role: "admin", reissued: true }),
  entry("member.joined", { role: "member" }),
  entry("member.role_changed", { previousRole: "member", role: "admin" }),
  entry("member.removed"),
  entry("workspace.transferred"),
  entry("client.added"),
  entry("client.assigned", { assignees: ["Olga Owner", "Mia Member"] }),
  entry("client.assigned", { assignees: [] }),
  entry("client.deleted", { keptDays: 30 }),
  entry("client.deleted"),
  entry("client.restored"),
  entry("client.purged"),
  entry("client.invite_reissued"),
  entry("contact.added", { client: "Acme Corp" }),
  entry("contact.removed", { client: "Acme Corp" }),
  entry("plan.changed", { tier: "agency" }),
  entry("seats.changed", { previousSeats: 1, seats: 2 }),
  entry("seats.changed", { seats: 2 }),
  entry("staff.signed_in", { method: "password" }),
  entry("staff.signed_in", { method: "google" }),
  entry("staff.signed_in", { method: "desktop" }),
  entry("staff.signed_in"),
  entry("workspace.retention_changed", { keptDays: 14 }),
  entry("workspace.retention_changed", { keptDays: 0 }),
  entry("client.renamed"),
];

describe("AuditSentence", () => {
  it("says in English what the CSV export says, the actor in bold", async () => {
    const i18n = await instance("en");
    for (const item of ENTRIES) {
      const html = render(i18n, item);
      expect(html.startsWith("<strong>Olga Owner</strong> ")).toBe(true);
      expect(text(html)).toBe(`Olga Owner ${describeAuditAction(item)}`);
    }
  });

  it("keeps names as typed, tags and entities included", async () => {
    const i18n = await instance("en");
    const odd = { ...entry("client.added"), subjectLabel: "Tom & <b>Jerry</b> <0>x</0>" };
    expect(text(render(i18n, odd))).toBe("Olga Owner added the client Tom & <b>Jerry</b> <0>x</0>");
  });

  it("speaks the reader's language, plurals included", async () => {
    const i18n = await instance("de");
    expect(text(render(i18n, entry("member.invited", { role: "member" })))).toBe(
      "Olga Owner hat Acme Corp als Mitglied eingeladen",
    );
    expect(text(render(i18n, entry("client.deleted", { keptDays: 30 })))).toBe(
      "Olga Owner hat den Kunden Acme Corp gelöscht (30 Tage lang wiederherstellbar)",
    );
  });
});
