// Does the time of an answer tell who has an account? POST /api/forgot-password (a verified
// owner), /api/resend-verification (an owner who has not verified yet),
// /api/client-sign-in-link (a client who has joined a conversation) and /api/register (a
// verified owner signing up again, against new addresses), each REQUESTS times for
// known addresses, REQUESTS times for unknown ones and REQUESTS times for other unknown ones (a
// control: the difference between two series of the same kind is the noise of the machine),
// interleaved in rotating order, one at a time, each from its own X-Forwarded-For address (the
// server runs with TRUST_PROXY=true) so that no per-IP limit answers. Known addresses are used
// at most four times each, within the per-address mail limit. Mail goes to a real SMTP server
// in this process, as in production; a pause of PAUSE_MS follows every request so that the
// mail work queued by one request has finished before the next is timed.
// Figures: median and p90 of the answer time per kind and endpoint, the difference of the
// medians of known and unknown (target: under 1 ms) and of control and unknown (the noise), and
// how often the best threshold on one answer's time classifies a request right, on PGlite and
// PostgreSQL.
//
// Environment: BENCH_ENUM_REQUESTS (50), BENCH_ENUM_PAUSE_MS (100), BENCH_DATABASE_URL.
import { randomBytes } from "node:crypto";
import {
  postgresAvailable,
  removeDir,
  round,
  scratchDatabase,
  sleep,
  startServer,
  stats,
  tempDir,
} from "./lib/harness.mjs";

export const description =
  "answer time of forgot-password, resend-verification, client sign-in link, sign-up: known vs unknown address";

const REQUESTS = Number(process.env.BENCH_ENUM_REQUESTS ?? 50);
const PAUSE_MS = Number(process.env.BENCH_ENUM_PAUSE_MS ?? 100);
const TARGET_MS = 1;
const USES_PER_ADDRESS = 4;
const WARM_UP_ROUNDS = 10;
const ENDPOINTS = ["forgot-password", "resend-verification", "client-sign-in-link", "register"];
const SIGN_UP = {
  password: "a password for the bench",
  fullName: "Bench Sign-up",
  role: "owner",
  accountTier: "free",
};
/** What each endpoint is sent for an address, and the status it answers. */
const bodyFor = (endpoint, email) => (endpoint === "register" ? { email, ...SIGN_UP } : { email });
const okStatus = (endpoint) => (endpoint === "register" ? 201 : 200);
/** Mails one round of known, unknown and control sends: a sign-up mails new addresses too. */
const mailsPerRound = (endpoint) => (endpoint === "register" ? 3 : 1);
/** Each kind goes first, second and third equally often, and follows each other kind alike. */
const ORDERS = [
  ["known", "unknown", "control"],
  ["unknown", "control", "known"],
  ["control", "known", "unknown"],
  ["known", "control", "unknown"],
  ["control", "unknown", "known"],
  ["unknown", "known", "control"],
];

/** A real SMTP server that keeps the 6-digit code of each mail by recipient. */
async function startSmtpSink() {
  const { SMTPServer } = await import("smtp-server");
  const { simpleParser } = await import("mailparser");
  const codes = new Map();
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received += 1;
          const code = `${mail.subject ?? ""}\n${mail.text ?? ""}`.match(/\b(\d{6})\b/)?.[1];
          for (const to of session.envelope.rcptTo) if (code) codes.set(to.address, code);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${server.server.address().port}`,
    get received() {
      return received;
    },
    /** Waits until `count` mails have come in all told; false if they have not by the deadline. */
    async receivedAtLeast(count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (received < count) {
        if (Date.now() > deadline) return false;
        await sleep(20);
      }
      return true;
    },
    async code(email, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!codes.has(email)) {
        if (Date.now() > deadline) throw new Error(`no code mailed to ${email}`);
        await sleep(20);
      }
      return codes.get(email);
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};
const newAddress = (label) => `${label}-${randomBytes(5).toString("hex")}@example.test`;

async function post(server, urlPath, body, cookie) {
  const headers = {
    "content-type": "application/json",
    origin: server.url,
    "x-forwarded-for": nextIp(),
    ...(cookie ? { cookie } : {}),
  };
  const started = performance.now();
  const response = await fetch(`${server.url}${urlPath}`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  return { status: response.status, text, ms, headers: response.headers };
}

async function expectStatus(promise, status, what) {
  const response = await promise;
  if (response.status !== status) throw new Error(`${what}: ${response.status} ${response.text}`);
  return response;
}

/** Owners who verified (each with one joined client) and owners who did not. */
async function seedAccounts(server, smtp, count) {
  const verified = [];
  const signingUpAgain = [];
  const unverified = [];
  const clients = [];
  const password = "correct horse battery staple";
  for (let i = 0; i < count; i += 1) {
    const email = newAddress("owner");
    const account = {
      email,
      password,
      fullName: "Bench Owner",
      role: "owner",
      accountTier: "free",
    };
    await expectStatus(post(server, "/api/register", account), 201, "register");
    const verifiedAnswer = await expectStatus(
      post(server, "/api/verify-email", { email, code: await smtp.code(email) }),
      200,
      "verify-email",
    );
    const sid = verifiedAnswer.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .find((pair) => pair.startsWith("sid="));
    verified.push(email);
    const again = newAddress("registered");
    await expectStatus(
      post(server, "/api/register", { ...account, email: again }),
      201,
      "register",
    );
    await expectStatus(
      post(server, "/api/verify-email", { email: again, code: await smtp.code(again) }),
      200,
      "verify-email",
    );
    signingUpAgain.push(again);
    const clientEmail = newAddress("client");
    const added = await expectStatus(
      post(server, "/api/clients", { name: "Bench Client", email: clientEmail }, sid),
      201,
      "add client",
    );
    const { inviteToken } = JSON.parse(added.text);
    await expectStatus(post(server, `/api/invite/${inviteToken}`, {}), 200, "accept invite");
    clients.push(clientEmail);

    const waiting = newAddress("unverified");
    await expectStatus(
      post(server, "/api/register", { ...account, email: waiting }),
      201,
      "register (unverified)",
    );
    // Its code mail is in: nothing of the seeding is still on its way when the counting starts.
    await smtp.code(waiting);
    unverified.push(waiting);
  }
  return {
    "forgot-password": verified,
    "resend-verification": unverified,
    "client-sign-in-link": clients,
    register: signingUpAgain,
  };
}

/**
 * How well one request tells the two series apart: the share of all requests put on the right
 * side by the best single threshold on the answer time (0.5 is a coin; with 50 of each, two
 * series of the same kind come out near 0.6, as the threshold is fitted to them).
 */
function classifies(a, b) {
  const all = [...a.map((ms) => [ms, 0]), ...b.map((ms) => [ms, 1])].sort((x, y) => x[0] - y[0]);
  let best = 0.5;
  let aBelow = 0;
  let bBelow = 0;
  for (const [, side] of all) {
    if (side === 0) aBelow += 1;
    else bBelow += 1;
    // Threshold after this request: "a is slower" or "b is slower".
    const aSlower = (bBelow + (a.length - aBelow)) / all.length;
    best = Math.max(best, aSlower, 1 - aSlower);
  }
  return round(best, 2);
}

async function measure(backend, log) {
  const dataDir = tempDir(`enum-${backend}`);
  const database = backend === "postgres" ? await scratchDatabase() : null;
  const smtp = await startSmtpSink();
  let server;
  try {
    server = await startServer({
      dataDir,
      databaseUrl: database?.url,
      env: { SMTP_URL: smtp.url, TRUST_PROXY: "true", BILLING_MODE: "test" },
      label: `enum-${backend}`,
    });
    const known = await seedAccounts(server, smtp, Math.ceil(REQUESTS / USES_PER_ADDRESS));
    // Warm-up: the code paths of both kinds, untimed; each known address is mailed once.
    const beforeWarmUp = smtp.received;
    for (const endpoint of ENDPOINTS) {
      for (let i = 0; i < WARM_UP_ROUNDS; i += 1) {
        await post(server, `/api/${endpoint}`, bodyFor(endpoint, newAddress("warm")));
        await post(
          server,
          `/api/${endpoint}`,
          bodyFor(endpoint, known[endpoint][i % known[endpoint].length]),
        );
        await sleep(PAUSE_MS);
      }
    }
    // The warm-up used each known address once: start again from fresh ones.
    await smtp.receivedAtLeast(
      beforeWarmUp +
        ENDPOINTS.reduce(
          (sum, endpoint) => sum + WARM_UP_ROUNDS * (endpoint === "register" ? 2 : 1),
          0,
        ),
    );
    const fresh = await seedAccounts(server, smtp, Math.ceil(REQUESTS / USES_PER_ADDRESS));
    const mailsBefore = smtp.received;
    const result = {};
    for (const endpoint of ENDPOINTS) {
      const times = { known: [], unknown: [], control: [] };
      for (let i = 0; i < REQUESTS; i += 1) {
        const knownEmail = fresh[endpoint][Math.floor(i / USES_PER_ADDRESS)];
        for (const kind of ORDERS[i % ORDERS.length]) {
          const email = kind === "known" ? knownEmail : newAddress("nobody");
          const answer = await post(server, `/api/${endpoint}`, bodyFor(endpoint, email));
          if (answer.status !== okStatus(endpoint))
            throw new Error(`${endpoint} (${kind}): ${answer.status} ${answer.text}`);
          times[kind].push(answer.ms);
          await sleep(PAUSE_MS);
        }
      }
      const summary = (values) => {
        const s = stats(values, 2);
        const p90 = round([...values].sort((a, b) => a - b)[Math.floor(values.length * 0.9)], 2);
        return { median: s.median, p90, min: s.min, max: s.max, values: s.values };
      };
      const known = summary(times.known);
      const unknown = summary(times.unknown);
      const control = summary(times.control);
      result[endpoint] = {
        known,
        unknown,
        control,
        differenceMs: round(known.median - unknown.median, 2),
        noiseMs: round(control.median - unknown.median, 2),
        classifies: classifies(times.known, times.unknown),
        controlClassifies: classifies(times.control, times.unknown),
      };
      log(
        `${backend} ${endpoint}: known ${known.median} ms, unknown ${unknown.median} ms, difference ${result[endpoint].differenceMs} ms (unknown vs unknown: ${result[endpoint].noiseMs} ms)`,
      );
    }
    // Proof that the known addresses were really mailed (in the background): one mail per
    // known request, awaited; a shortfall by the deadline shows in the figure.
    await smtp.receivedAtLeast(
      mailsBefore +
        ENDPOINTS.reduce((sum, endpoint) => sum + REQUESTS * mailsPerRound(endpoint), 0),
    );
    result.mailsDuringMeasurement = smtp.received - mailsBefore;
    return result;
  } finally {
    await server?.stop();
    await smtp.close();
    removeDir(dataDir);
    await database?.drop();
  }
}

export async function run({ log = console.log } = {}) {
  const result = { unit: "ms", requests: REQUESTS, pauseMs: PAUSE_MS, targetMs: TARGET_MS };
  result.pglite = await measure("pglite", log);
  const pg = await postgresAvailable();
  result.postgres = pg.available ? await measure("postgres", log) : { skipped: pg.reason };
  return result;
}

const pct = (share) => `${Math.round(share * 100)}%`;

export function summarize(result) {
  const lines = [];
  for (const backend of ["pglite", "postgres"]) {
    const r = result[backend];
    if (!r || r.skipped) {
      lines.push(`${backend.padEnd(9)}SKIPPED: ${r?.skipped ?? "not run"}`);
      continue;
    }
    for (const endpoint of ENDPOINTS) {
      const e = r[endpoint];
      const met = Math.abs(e.differenceMs) < result.targetMs ? "met" : "MISSED";
      lines.push(
        `${backend.padEnd(9)}${endpoint.padEnd(21)} known ${e.known.median.toFixed(2)} ms (p90 ${e.known.p90.toFixed(2)}), unknown ${e.unknown.median.toFixed(2)} ms (p90 ${e.unknown.p90.toFixed(2)}): difference ${e.differenceMs.toFixed(2)} ms (< ${result.targetMs} ms: ${met}), one request classifies ${pct(e.classifies)}; unknown vs unknown ${e.noiseMs.toFixed(2)} ms, ${pct(e.controlClassifies)}`,
      );
    }
    lines.push(
      `${backend.padEnd(9)}mails sent in the background while measuring: ${r.mailsDuringMeasurement}`,
    );
  }
  return lines;
}
