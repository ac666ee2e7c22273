import { escapeHtml } from "../mail/layout";

/**
 * The CSP of the system browser's pages between Google and the desktop app: self-contained (no
 * script, nothing loaded), forms only to this server. Browsers apply form-action to the form's
 * redirects too, so the app's loopback port, where Continue and Cancel end, is allowed as well.
 */
export function desktopPageCsp(loopbackPort?: number): string {
  const formAction = loopbackPort ? `'self' http://127.0.0.1:${loopbackPort}` : "'self'";
  return `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`;
}

export const CONFIRM_PATH = "/auth/google/desktop/confirm";
export const CANCEL_PATH = "/auth/google/desktop/cancel";

const STYLE = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#f4f6f9;color:#101828;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{width:min(28rem,calc(100% - 32px));margin:24px 0;padding:32px;background:#fff;border:1px solid #e4e7ec;border-radius:12px;box-shadow:0 1px 3px rgb(16 24 40 / .08)}
.brand{margin:0 0 20px;font-weight:600;color:#0079d1;letter-spacing:.01em}
h1{margin:0 0 12px;font-size:22px;line-height:1.3}
p{margin:0 0 12px;color:#475467}
strong{color:#101828;overflow-wrap:anywhere}
.actions{display:flex;gap:12px;margin-top:24px}
.actions form{margin:0;flex:1}
button{width:100%;min-height:40px;padding:8px 16px;border-radius:8px;font:inherit;font-weight:600;cursor:pointer;border:1px solid #d0d5dd;background:#fff;color:#101828}
button:hover{background:#f9fafb}
button.primary{background:#0079d1;border-color:#0079d1;color:#fff}
button.primary:hover{background:#006ab8}
button:focus-visible{outline:none;box-shadow:0 0 0 4px rgb(0 147 255 / .35)}
`;

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ClientDesk</title>
<style>${STYLE}</style></head>
<body><main><p class="brand">ClientDesk</p><h1>${escapeHtml(title)}</h1>${content}</main></body></html>`;
}

/** Asks before the one-time code goes to whatever listens on the loopback port. */
export function confirmationPage(email: string): string {
  return page(
    "Sign in to the ClientDesk app?",
    `<p>You're signing in to the ClientDesk desktop app as <strong>${escapeHtml(email)}</strong>.</p>
<p>Continue only if you just chose “Sign in with Google” in the app.</p>
<div class="actions">
<form method="post" action="${CANCEL_PATH}"><button type="submit">Cancel</button></form>
<form method="post" action="${CONFIRM_PATH}"><button type="submit" class="primary">Continue</button></form>
</div>`,
  );
}

export const expiredPage = () =>
  page(
    "This sign-in has expired",
    "<p>Nothing was signed in. Return to the ClientDesk app and choose “Sign in with Google” again.</p>",
  );
