import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestClock } from "../../tests/support/clock";
import { addJoinedContact } from "../../tests/support/contacts";
import { addJoinedClient, setTier } from "../../tests/support/conversations";
import { testDatabase } from "../../tests/support/database";
import { signUpOwner, startConversation, uniqueEmail } from "../../tests/support/factories";
import { minimalPdf } from "../../tests/support/pdf";
import { type TestAgent, type TestServer, startTestServer } from "../../tests/support/server";
import { linkIn, type ReceivedMail } from "../../tests/support/smtp";
import type { Language } from "../../shared/i18n/languages";
import { translatorFor } from "../i18n/translator";
import { mailFormats } from "./mail-formats";

// Issue 29: every email in its recipient's language, never the sender's. The sweeps take every
// due row of their database: this file has a database of its own.
let server: TestServer;
let clock: TestClock;
beforeAll(async () => {
  server = await startTestServer({ db: await testDatabase({ isolated: true }) });
  clock = server.clock as TestClock;
});
afterAll(async () => {
  await server?.close();
  await server?.db.destroy();
});

const setUserLanguage = (id: string, language: Language | null) =>
  server.db("users").where({ id }).update({ language });
const setClientLanguage = (id: string, language: Language | null) =>
  server.db("clients").where({ id }).update({ language });

async function send(agent: TestAgent, clientId: string, content: string) {
  const response = await agent.post(`/api/clients/${clientId}/messages`, { content });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
}

/** Moves the clock past the default delay (5 minutes) and runs the sweep and the outbox. */
async function sweepAfter(minutes: number) {
  clock.advanceMinutes(minutes);
  await server.jobs.runOnce("unanswered-messages");
  await server.jobs.runOnce("mail-outbox");
  await server.mailSettled();
}

/** The one mail to `address` besides an owner's verification code. */
const onlyMailTo = (address: string): ReceivedMail => {
  const mails = server.smtp.mailsTo(address).filter((mail) => !/^\d{6} /.test(mail.subject));
  expect(mails.map((mail) => mail.subject)).toHaveLength(1);
  return mails[0] as ReceivedMail;
};

describe("unanswered-message emails", () => {
  it("reach a client whose company speaks German in German, and the owner in English", async () => {
    const { owner, client } = await startConversation(server);
    await setClientLanguage(client.id, "de");
    await setUserLanguage(owner.id, "en");

    await send(owner.agent, client.id, "Hier ist der erste Entwurf.");
    await sweepAfter(5);
    const toClient = onlyMailTo(client.email);
    expect(toClient.subject).toBe("Neue Nachricht von Olivia Owner");
    expect(toClient.text).toContain(
      "Guten Tag Carla Client, Olivia Owner wartet auf ClientDesk auf Ihre Antwort.",
    );
    expect(toClient.text).toContain("Hier ist der erste Entwurf.");
    expect(linkIn(toClient, "Unterhaltung öffnen")).toBe(`${server.url}/client/${client.id}`);
    expect(toClient.text).toContain(
      "weil diese Nachricht 5 Minuten lang weder gelesen noch beantwortet wurde.",
    );
    expect(toClient.html).toContain("Olivia Owner hat Ihnen eine Nachricht gesendet");

    await send(client.agent, client.id, "Danke, sieht gut aus.");
    await sweepAfter(5);
    const toOwner = onlyMailTo(owner.email);
    expect(toOwner.subject).toBe("New message from Carla Client");
    expect(toOwner.text).toContain(
      "Hello Olivia Owner, Carla Client is waiting for your answer on ClientDesk.",
    );
    expect(toOwner.text).toContain("waited 5 minutes without being read or answered");
  });

  it("follow a person's own language over their client's", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    await setTier(owner.id, "agency");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    const contact = await addJoinedContact(server, owner, client.id, { name: "Dora Director" });
    await setClientLanguage(client.id, "de");
    await setUserLanguage(contact.userId, "fr");

    await send(owner.agent, client.id, "Voici la maquette.");
    await sweepAfter(5);
    expect(onlyMailTo(client.email).subject).toBe("Neue Nachricht von Olivia Owner");
    const toContact = onlyMailTo(contact.email);
    expect(toContact.subject).toBe("Nouveau message de Olivia Owner");
    expect(toContact.text).toContain(
      "Bonjour Dora Director, Olivia Owner attend votre réponse sur ClientDesk.",
    );
    expect(linkIn(toContact, "Ouvrir la conversation")).toBe(`${server.url}/client/${client.id}`);
  });
});

describe("invites", () => {
  it("are written in the client's language, else the workspace's", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    await setTier(owner.id, "agency");
    await server.db("users").where({ id: owner.id }).update({ workspace_language: "pt-BR" });

    // A new client has no language of its own: the workspace's.
    const clientEmail = uniqueEmail("client");
    const added = await owner.agent.post("/api/clients", {
      name: "Carla Client",
      email: clientEmail,
      sendInviteEmail: true,
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const invite = await server.smtp.waitFor(clientEmail);
    expect(invite.subject).toBe("Olivia Owner convidou você para uma conversa no ClientDesk");
    expect(invite.text).toContain("Olá, Carla Client");

    // A further contact of a client that speaks Spanish: Spanish, formal.
    await setClientLanguage(added.body.id, "es");
    const contactEmail = uniqueEmail("contact");
    const contact = await owner.agent.post(`/api/clients/${added.body.id}/contacts`, {
      name: "Dora Director",
      email: contactEmail,
      sendInviteEmail: true,
    });
    expect(contact.status, JSON.stringify(contact.body)).toBe(201);
    const contactInvite = await server.smtp.waitFor(contactEmail);
    expect(contactInvite.subject).toBe(
      "Olivia Owner le ha invitado a una conversación en ClientDesk",
    );
    expect(contactInvite.text).toContain("Hola, Dora Director");
    expect(contactInvite.text).toMatch(/^Abrir la conversación: \S+$/m);
  });
});

describe("client sign-in links", () => {
  it("are in the language of the person they sign in", async () => {
    const { client } = await startConversation(server);
    await setClientLanguage(client.id, "es");
    const asked = await server.agent().post("/api/client-sign-in-link", { email: client.email });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const mail = await server.smtp.waitFor(client.email, (m) => m.subject.startsWith("Inicie"));
    expect(mail.subject).toBe("Inicie sesión en su conversación con Olivia Owner");
    expect(mail.text).toMatch(/^Iniciar sesión: \S+$/m);
  });
});

describe("sign-up mails", () => {
  it("are in the language of the request that asked for them", async () => {
    const email = uniqueEmail("owner");
    const registered = await server.agent().request("POST", "/api/register", {
      json: {
        email,
        password: "correct horse battery",
        fullName: "Olivia Owner",
        role: "owner",
        accountTier: "free",
      },
      headers: { "Accept-Language": "fr-CA,fr;q=0.9,en;q=0.5" },
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const mail = await server.smtp.waitFor(email);
    expect(mail.subject).toMatch(/^\d{6} est votre code de vérification ClientDesk$/);
    expect(mail.text).toContain("Vérifiez votre adresse e-mail");
  });
});

describe("due-date reminders", () => {
  it("write the due date in the recipient's language", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    await setTier(owner.id, "agency");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    await setClientLanguage(client.id, "de");
    const today = clock.now().toISOString().slice(0, 10);
    const dueDate = new Date(Date.parse(`${today}T00:00:00Z`) + 3 * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const body = new FormData();
    body.append("requiresFeedback", "true");
    body.append("dueDate", dueDate);
    body.append(
      "file",
      new Blob([new Uint8Array(minimalPdf())], { type: "application/pdf" }),
      "Poster.pdf",
    );
    const upload = await owner.agent.request("POST", `/api/clients/${client.id}/upload`, { body });
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);

    // 09:01 UTC the day before (the client has no time zone: UTC).
    const dayBefore = Date.parse(`${dueDate}T09:01:00Z`) - 86_400_000;
    clock.advance(dayBefore - clock.now().getTime());
    await server.jobs.runOnce("due-reminders");
    await server.jobs.runOnce("mail-outbox");
    const mail = await server.smtp.waitFor(client.email, (m) => m.subject.startsWith("Morgen"));
    expect(mail.subject).toBe("Morgen fällig: Poster.pdf wartet auf Ihre Freigabe");
    const written = new Intl.DateTimeFormat("de", {
      timeZone: "UTC",
      weekday: "long",
      month: "long",
      day: "numeric",
      year: "numeric",
    }).format(new Date(`${dueDate}T12:00:00Z`));
    expect(written).toMatch(/^\w+, \d{1,2}\. \w+ \d{4}$/);
    expect(mail.text).toContain(
      `Guten Tag Carla Client, Olivia Owner bittet Sie bis ${written} um Ihre Entscheidung zu Poster.pdf.`,
    );
    expect(linkIn(mail, "Freigeben")).toMatch(/\/client\/feedback\//);
    expect(linkIn(mail, "Überarbeiten")).toMatch(/\/client\/feedback\//);
  });
});

describe("mail formats", () => {
  const at = new Date("2026-12-07T05:29:00Z");

  it("write times in the recipient's language and zone, named", () => {
    const de = mailFormats("de", "Europe/Berlin", translatorFor("de", "emails"));
    expect(de.dateTime(at)).toBe("07.12.2026, 06:29 MEZ");
    expect(de.price(123456, "eur")).toBe("1.234,56\u00a0€");
    expect(de.fileSize(1536 * 1024)).toBe("1,5 MB");
    const fr = mailFormats("fr", null, translatorFor("fr", "emails"));
    expect(fr.fileSize(1536 * 1024)).toBe("1,5 Mo");
    expect(fr.isoDateTime(at)).toBe("2026-12-07 05:29 UTC");
  });

  it("keep English in UTC as the mails always wrote it", () => {
    const en = mailFormats("en", null, translatorFor("en", "emails"));
    const before = `${at.toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC`;
    expect(en.dateTime(at)).toBe(before);
    expect(en.isoDateTime(at)).toBe("2026-12-07 05:29 UTC");
    expect(en.price(1000, "usd")).toBe("$10.00");
    expect(en.fileSize(0)).toBe("0 Bytes");
    expect(en.fileSize(1536 * 1024)).toBe("1.5 MB");
  });
});
