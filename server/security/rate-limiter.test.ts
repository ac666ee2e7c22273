import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { testDatabase, usingPostgres } from "../../tests/support/database";
import { TcpProxy } from "../../tests/support/tcp-proxy";
import { createDatabase, type Database } from "../db/connection";
import { isDatabaseUnavailable } from "../db/database-unavailable";
import { HttpError } from "../errors";
import { translateMessage } from "../i18n/translator";
import { createLogger } from "../logger";
import { createRateLimiter, type Limit, RATE_LIMITS_TABLE } from "./rate-limiter";

const MINUTE = 60_000;
const THREE_PER_QUARTER: Limit = { points: 3, windowMs: 15 * MINUTE };

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(() => db?.destroy());
afterEach(() => {
  vi.useRealTimers();
});

/** A limiter of its own (the test database is shared by the files running at once). */
const limiter = (database = db, keyPrefix = `unit-${randomUUID()}`) =>
  createRateLimiter(database, { keyPrefix });

/** What consume threw: the 429 the caller gets, or undefined when it let the attempt through. */
/** The refusal's {message} as an English reader gets it (server/middlewares/errors.ts). */
const readMessage = (error: HttpError | undefined) =>
  error && translateMessage("en", error.message, error.values);

async function refusal(attempt: Promise<void>): Promise<HttpError | undefined> {
  try {
    await attempt;
    return undefined;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
}

/**
 * The windows run on the wall clock (the library's Date.now): only Date is faked, so the
 * database connections and their timers go on as usual.
 */
function freezeTime() {
  vi.useFakeTimers({ toFake: ["Date"] });
  const start = Date.now();
  return { after: (ms: number) => vi.setSystemTime(start + ms) };
}

describe(`the rate limiter (${usingPostgres ? "PostgreSQL" : "PGlite, in process"})`, () => {
  it("lets the points through, then refuses with 429, the minutes left and Retry-After", async () => {
    const time = freezeTime();
    const limits = limiter();
    for (let i = 0; i < 3; i += 1) {
      expect(await refusal(limits.consume("someone", THREE_PER_QUARTER))).toBeUndefined();
    }
    const refused = await refusal(limits.consume("someone", THREE_PER_QUARTER));
    expect(refused?.status).toBe(429);
    expect(readMessage(refused)).toBe("Too many attempts. Please try again in 15 minutes.");
    expect(refused?.headers).toEqual({ "Retry-After": "900" });

    time.after(14 * MINUTE + 30_000);
    const later = await refusal(limits.consume("someone", THREE_PER_QUARTER));
    expect(readMessage(later)).toBe("Too many attempts. Please try again in 1 minute.");
    expect(later?.headers).toEqual({ "Retry-After": "30" });
  });

  it("starts a new window once the last one has ended", async () => {
    const time = freezeTime();
    const limits = limiter();
    for (let i = 0; i < 4; i += 1) await refusal(limits.consume("someone", THREE_PER_QUARTER));
    time.after(15 * MINUTE);
    expect(await refusal(limits.consume("someone", THREE_PER_QUARTER))).toBeUndefined();
    expect(await refusal(limits.consume("someone", THREE_PER_QUARTER))).toBeUndefined();
  });

  it("counts each key and each limit on its own", async () => {
    const limits = limiter();
    const onePerHour: Limit = { points: 1, windowMs: 60 * MINUTE };
    await limits.consume("first", onePerHour);
    expect((await refusal(limits.consume("first", onePerHour)))?.status).toBe(429);
    expect(await refusal(limits.consume("second", onePerHour))).toBeUndefined();
    expect(await refusal(limits.consume("first", THREE_PER_QUARTER))).toBeUndefined();
  });

  it("forgets a key on reset", async () => {
    const limits = limiter();
    for (let i = 0; i < 3; i += 1) await limits.consume("someone", THREE_PER_QUARTER);
    await limits.reset("someone", THREE_PER_QUARTER);
    for (let i = 0; i < 3; i += 1) {
      expect(await refusal(limits.consume("someone", THREE_PER_QUARTER))).toBeUndefined();
    }
    expect((await refusal(limits.consume("someone", THREE_PER_QUARTER)))?.status).toBe(429);
  });

  it.skipIf(usingPostgres)(
    "keeps its counts in process on PGlite (nothing in the table)",
    async () => {
      const limits = limiter();
      await limits.consume("someone", THREE_PER_QUARTER);
      expect(await db(RATE_LIMITS_TABLE).count({ count: "*" })).toEqual([{ count: 0 }]);
      // Another limiter of the same name in the same process is another instance's memory.
      const elsewhere = createRateLimiter(db, { keyPrefix: "same" });
      const here = createRateLimiter(db, { keyPrefix: "same" });
      for (let i = 0; i < 3; i += 1) await here.consume("someone", THREE_PER_QUARTER);
      expect(await refusal(elsewhere.consume("someone", THREE_PER_QUARTER))).toBeUndefined();
    },
  );
});

describe.skipIf(!usingPostgres)("the rate limiter on PostgreSQL", () => {
  const url = process.env.TEST_DATABASE_URL as string;

  it("shares one budget between instances with their own connections", async () => {
    const keyPrefix = `unit-${randomUUID()}`;
    const otherDb = createDatabase({ url, poolMax: 2 });
    try {
      const first = limiter(db, keyPrefix);
      const second = limiter(otherDb, keyPrefix);
      await first.consume("someone", THREE_PER_QUARTER);
      await second.consume("someone", THREE_PER_QUARTER);
      await first.consume("someone", THREE_PER_QUARTER);
      const refused = await refusal(second.consume("someone", THREE_PER_QUARTER));
      expect(refused?.status).toBe(429);
      expect(Number(refused?.headers["Retry-After"])).toBeGreaterThan(890);
      expect(Number(refused?.headers["Retry-After"])).toBeLessThanOrEqual(900);
      // A reset on one instance is seen by the other.
      await first.reset("someone", THREE_PER_QUARTER);
      expect(await refusal(second.consume("someone", THREE_PER_QUARTER))).toBeUndefined();
      // Another prefix (another test server) is another budget.
      expect(await refusal(limiter(otherDb).consume("someone", THREE_PER_QUARTER))).toBeUndefined();
    } finally {
      await otherDb.destroy();
    }
  });

  it("keeps an address as long as typed (keys are not cut at 255 characters)", async () => {
    const limits = limiter();
    const long = `${"a".repeat(240)}@${"b".repeat(60)}.example`;
    const refusals = [];
    for (let i = 0; i < 4; i += 1)
      refusals.push(await refusal(limits.consume(long, THREE_PER_QUARTER)));
    expect(refusals.map((refused) => refused?.status)).toEqual([
      undefined,
      undefined,
      undefined,
      429,
    ]);
  });

  it("fails closed: with the database out of reach, an attempt is refused, not let through", async () => {
    const through = await TcpProxy.inFrontOf(url);
    // Its "connection ended" warnings are what this test expects.
    const logger = createLogger("silent");
    const reachedThroughProxy = createDatabase({ url: through.url, poolMax: 2, logger });
    try {
      const limits = limiter(reachedThroughProxy);
      await limits.consume("someone", THREE_PER_QUARTER);
      await through.proxy.cut();
      const outcome = await limits.consume("someone", THREE_PER_QUARTER).then(
        () => "let through",
        (error: unknown) => error,
      );
      expect(outcome).not.toBe("let through");
      expect(outcome).not.toBeInstanceOf(HttpError);
      expect(isDatabaseUnavailable(outcome)).toBe(true);
      await through.proxy.resume();
      // Back: the count went on where it was.
      await limits.consume("someone", THREE_PER_QUARTER);
      await limits.consume("someone", THREE_PER_QUARTER);
      expect((await refusal(limits.consume("someone", THREE_PER_QUARTER)))?.status).toBe(429);
    } finally {
      await reachedThroughProxy.destroy();
      await through.proxy.close();
    }
  });
});
