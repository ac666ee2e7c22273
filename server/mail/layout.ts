import { shadeForContrast } from "../../shared/contrast";

/** Escapes text for HTML: every value put into a mail's HTML goes through this. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** An agency owner's look, shown to their clients (see branding.ts). */
export interface MailBrand {
  /** Shown as the header when there is no logo, and as the logo's alt text. */
  name: string;
  /** Content id of the logo attached inline to the mail. */
  logoCid?: string;
  primaryColor: string;
  backgroundColor: string;
  textColor: string;
}

export interface LayoutOptions {
  heading: string;
  /** Paragraphs of plain text. */
  paragraphs: string[];
  /** Quoted messages (sender and text), e.g. the ones waiting for an answer. */
  quotes?: MailQuote[];
  /** A large code shown on its own line. */
  code?: string;
  action?: { label: string; url: string };
  /** Why the mail was sent. */
  footer: string;
  /** A link under the footer, e.g. where to change the notification delay. */
  footerLink?: { label: string; url: string };
  primaryColor?: string;
  brand?: MailBrand;
}

/** A quoted message, and buttons under it (a file's Approve and Needs Work). */
export interface MailQuote {
  from: string;
  text: string;
  /** Said above the buttons, e.g. "This file waits for your approval." */
  buttonsIntro?: string;
  /** A short list under the quote (a file's open review marks), with its heading. */
  list?: { heading: string; items: string[] };
  /** The first is filled, the others outlined. `name` completes the label for screen readers. */
  buttons?: { label: string; url: string; name?: string }[];
}

const DEFAULT_PRIMARY = "#0093ff";
const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

/** A stored colour if it is a plain #rrggbb, else the default (it goes into a style attribute). */
function color(value: string | undefined, fallback: string): string {
  return value && HEX_COLOR.test(value) ? value : fallback;
}

/**
 * "Bulletproof" buttons: a table cell with the colour (Outlook ignores an <a>'s padding and
 * background) around a link that is itself a block, so the whole button is the target.
 */
function quoteButtons(quote: MailQuote, filled: string, outlined: string): string {
  if (!quote.buttons?.length) return "";
  const cells = quote.buttons
    .map((button, index) => {
      const solid = index === 0;
      const cell = solid
        ? `bgcolor="${filled}" style="background:${filled};border-radius:8px"`
        : `style="border:2px solid ${outlined};border-radius:8px"`;
      const color = solid ? "#ffffff" : outlined;
      const padding = solid ? "12px 22px" : "10px 20px";
      const label = button.name
        ? ` aria-label="${escapeHtml(`${button.label}: ${button.name}`)}"`
        : "";
      return `<td ${cell}><a href="${escapeHtml(button.url)}"${label} style="display:inline-block;padding:${padding};color:${color};font-size:15px;font-weight:600;text-decoration:none;border-radius:8px">${escapeHtml(button.label)}</a></td>`;
    })
    .join('<td style="width:12px;font-size:0">&nbsp;</td>');
  const intro = quote.buttonsIntro
    ? `<p style="font-size:14px;line-height:1.5;margin:12px 0 8px">${escapeHtml(quote.buttonsIntro)}</p>`
    : "";
  return `${intro}<table role="presentation" cellpadding="0" cellspacing="0" style="margin:${intro ? "0" : "12px"} 0 4px"><tr>${cells}</tr></table>`;
}

function quoteList(quote: MailQuote): string {
  if (!quote.list) return "";
  const items = quote.list.items.map(
    (item) => `<li style="margin:0 0 4px">${escapeHtml(item)}</li>`,
  );
  return `<p style="font-size:14px;font-weight:600;margin:12px 0 4px">${escapeHtml(quote.list.heading)}</p><ul style="font-size:14px;line-height:1.5;margin:0;padding-left:20px">${items.join("")}</ul>`;
}

export function renderMail(options: LayoutOptions): { text: string; html: string } {
  const brand = options.brand;
  const primary = color(brand?.primaryColor ?? options.primaryColor, DEFAULT_PRIMARY);
  const background = color(brand?.backgroundColor, "#ffffff");
  const foreground = color(brand?.textColor, "#1f2328");
  const quotes = options.quotes ?? [];
  const text = [
    ...(brand ? [brand.name, ""] : []),
    options.heading,
    "",
    ...options.paragraphs.flatMap((p) => [p, ""]),
    ...quotes.flatMap((q) => [
      `${q.from}:`,
      ...q.text.split("\n").map((line) => `> ${line}`),
      "",
      ...(q.list ? [q.list.heading, ...q.list.items.map((item) => `- ${item}`), ""] : []),
      ...(q.buttons?.length
        ? [
            ...(q.buttonsIntro ? [q.buttonsIntro] : []),
            ...q.buttons.map((b) => `${b.label}: ${b.url}`),
            "",
          ]
        : []),
    ]),
    ...(options.code ? [options.code, ""] : []),
    ...(options.action ? [`${options.action.label}: ${options.action.url}`, ""] : []),
    "--",
    options.footer,
    ...(options.footerLink ? [`${options.footerLink.label}: ${options.footerLink.url}`] : []),
  ].join("\n");
  const header = brand
    ? brand.logoCid
      ? `<p style="margin:0 0 24px"><img src="cid:${escapeHtml(brand.logoCid)}" alt="${escapeHtml(brand.name)}" style="max-height:48px;max-width:240px"></p>`
      : `<p style="margin:0 0 24px;font-size:18px;font-weight:700;color:${primary}">${escapeHtml(brand.name)}</p>`
    : "";
  // Buttons with white text (the main action's too), and outlined ones in the brand colour,
  // need 4.5:1 (WCAG AA):
  // the default #0093ff under white is 3.2:1, so a darker shade of the same hue is used.
  const filled = shadeForContrast(primary, ["#ffffff"]) ?? "#0070c9";
  const outlined = shadeForContrast(primary, [background]) ?? foreground;
  const quoteHtml = quotes
    .map(
      (q) =>
        `<div style="border-left:3px solid ${primary};padding:4px 0 4px 12px;margin:0 0 12px"><p style="font-size:13px;font-weight:600;margin:0 0 4px">${escapeHtml(q.from)}</p><p style="font-size:15px;line-height:1.5;margin:0;white-space:pre-wrap">${escapeHtml(q.text)}</p>${quoteList(q)}${quoteButtons(q, filled, outlined)}</div>`,
    )
    .join("\n");
  const html = `<!doctype html><html><body style="margin:0;background:#f4f5f7;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:${foreground}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" style="max-width:520px;background:${background};color:${foreground};border-radius:12px;padding:32px" cellpadding="0" cellspacing="0"><tr><td>
${header}
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(options.heading)}</h1>
${options.paragraphs.map((p) => `<p style="font-size:15px;line-height:1.5;margin:0 0 12px">${escapeHtml(p)}</p>`).join("\n")}
${quoteHtml}
${options.code ? `<p style="font-size:32px;letter-spacing:8px;font-weight:700;margin:24px 0;font-family:Menlo,Consolas,monospace">${escapeHtml(options.code)}</p>` : ""}
${options.action ? `<p style="margin:24px 0"><a href="${escapeHtml(options.action.url)}" style="background:${filled};color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600;display:inline-block">${escapeHtml(options.action.label)}</a></p>` : ""}
<p style="font-size:12px;color:#6b7280;margin:24px 0 0;border-top:1px solid #e5e7eb;padding-top:16px">${escapeHtml(options.footer)}</p>
${options.footerLink ? `<p style="font-size:12px;color:#6b7280;margin:8px 0 0"><a href="${escapeHtml(options.footerLink.url)}" style="color:${primary}">${escapeHtml(options.footerLink.label)}</a></p>` : ""}
</td></tr></table></td></tr></table></body></html>`;
  return { text, html };
}
