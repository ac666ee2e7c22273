/**
 * The session cookie: its name, read by the server (koa-session), the websocket and the
 * desktop app, which keeps it across restarts. Its value is the session id; httpOnly, so the
 * web app never sees it.
 */
export const SESSION_COOKIE = "sid";
