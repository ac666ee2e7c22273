import { Router } from "@koa/router";
import path from "node:path";
import { listDevMail, readDevMail, readDevMailRaw } from "../mail/dev-mailbox";
import { escapeHtml } from "../mail/layout";
import type { AppContext } from "../context";
import type { AreaRouter } from "./area-router";
import { msg } from "../../shared/i18n/msg";
import { readable } from "../i18n/readable";

/**
 * /dev/mail: the dev mailbox in the browser (mounted only outside production, see app.ts).
 * The list, one mail (headers, HTML part in a sandboxed frame, text part, the raw .eml).
 */
const router: AreaRouter = new Router({ prefix: "/dev/mail" });

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

/**
 * Only for the person at the machine: the mails hold sign-in codes and links, and NODE_ENV
 * defaults to development, so a server started without it must not show them to the world.
 * A proxied request (X-Forwarded-For / Forwarded) is not local even when the proxy is.
 */
router.use(async (ctx, next) => {
  const local =
    LOOPBACK.has(ctx.req.socket.remoteAddress ?? "") &&
    !ctx.get("x-forwarded-for") &&
    !ctx.get("forwarded");
  if (!local) {
    ctx.status = 404;
    ctx.body = { message: readable(ctx, msg("Not found")) };
    return;
  }
  await next();
});

const mailboxDir = (ctx: AppContext) => path.join(ctx.services.config.dataDir, "mail");

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;margin:24px;color:#1f2328;max-width:960px}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:6px 8px;border-bottom:1px solid #e5e7eb;font-size:14px}
th{color:#6b7280;font-weight:600}a{color:#0069b8}pre{white-space:pre-wrap;background:#f6f8fa;padding:12px;border-radius:6px}
iframe{width:100%;height:640px;border:1px solid #e5e7eb;border-radius:6px}.note{color:#6b7280;font-size:14px}
</style></head><body>${body}</body></html>`;
}

router.get("/", (ctx) => {
  const mails = listDevMail(mailboxDir(ctx));
  const smtp = ctx.services.config.smtpUrl
    ? '<p class="note"><strong>SMTP_URL is set</strong>: new mail goes to that server; this mailbox only holds mail from before.</p>'
    : "";
  const rows = mails
    .map(
      (mail) =>
        `<tr><td>${escapeHtml(mail.date.replace("T", " ").slice(0, 19))}</td><td>${escapeHtml(mail.to)}</td><td><a href="/dev/mail/${mail.id}">${escapeHtml(mail.subject)}</a></td></tr>`,
    )
    .join("\n");
  ctx.type = "html";
  ctx.body = page(
    "Dev mailbox",
    `<h1>Dev mailbox</h1>
<p class="note">Every email the server sent while <code>SMTP_URL</code> is unset, newest first, from <code>${escapeHtml(mailboxDir(ctx))}</code>. This page exists only outside production. Reload to see new mail.</p>
${smtp}
${mails.length === 0 ? "<p>No mail yet.</p>" : `<table><thead><tr><th>Sent (UTC)</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows}</tbody></table>`}`,
  );
});

router.get("/:id", (ctx) => {
  const mail = readDevMail(mailboxDir(ctx), ctx.params.id ?? "");
  if (!mail) {
    ctx.status = 404;
    ctx.type = "html";
    ctx.body = page(
      "Not found",
      '<p>No such mail. <a href="/dev/mail">Back to the mailbox</a></p>',
    );
    return;
  }
  ctx.type = "html";
  ctx.body = page(
    mail.subject,
    `<p><a href="/dev/mail">&larr; Dev mailbox</a></p>
<h1>${escapeHtml(mail.subject)}</h1>
<table><tbody>
<tr><th>To</th><td>${escapeHtml(mail.to)}</td></tr>
<tr><th>Sent (UTC)</th><td>${escapeHtml(mail.date)}</td></tr>
<tr><th>Raw</th><td><a href="/dev/mail/${mail.id}/raw">${mail.id}.eml</a></td></tr>
</tbody></table>
<h2>HTML</h2>
<iframe title="HTML part" src="/dev/mail/${mail.id}/html" sandbox="allow-popups allow-popups-to-escape-sandbox"></iframe>
<h2>Plain text</h2>
<pre>${escapeHtml(mail.text)}</pre>`,
  );
});

/** The mail's own HTML, sandboxed: no scripts, no requests; links open in a new tab. */
router.get("/:id/html", (ctx) => {
  const mail = readDevMail(mailboxDir(ctx), ctx.params.id ?? "");
  if (!mail) {
    ctx.status = 404;
    return;
  }
  ctx.set(
    "Content-Security-Policy",
    "sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'; frame-ancestors 'self'",
  );
  ctx.set("X-Frame-Options", "SAMEORIGIN");
  ctx.type = "html";
  ctx.body = mail.html.replace(
    /^(<!doctype html>)?/i,
    (doctype) => `${doctype}<base target="_blank">`,
  );
});

router.get("/:id/raw", (ctx) => {
  const raw = readDevMailRaw(mailboxDir(ctx), ctx.params.id ?? "");
  if (!raw) {
    ctx.status = 404;
    return;
  }
  ctx.type = "message/rfc822";
  ctx.attachment(`${ctx.params.id}.eml`);
  ctx.body = raw;
});

export default router;
