// Property test of the per-account limits' bucket arithmetic (DESIGN §17, decision 0036) over
// random sequences of movements, time moving on and failed movements giving their volume back,
// on whichever database the test helper opens (PGlite, or PostgreSQL when DATABASE_URL is set).
// Against an in-memory model of every movement: after every step, no true rolling 24-hour or
// 30-day window holds more than its limit; the volume the service reports is exactly the model's
// over the windows as buckets approximate them; and a movement is refused only when that
// approximation says it would pass a limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Database } from '../../src/db/database.js';
import { createAccountLimits, type AccountLimits } from '../../src/compliance/limits/limits-service.js';
import { DEFAULT_LIMITS, type LimitSettings } from '../../src/config/limit-settings.js';
import { giveVolumeBack } from '../../src/compliance/limits/limits-repository.js';
import { HOUR_MS, WINDOW_SHAPE, windowFrom, type LimitWindow } from '../../src/compliance/limits/limit-windows.js';
import { AppError } from '../../src/platform/errors.js';
import { openTestDatabase } from '../helpers/test-database.js';
import { createUsers } from './ledger-helpers.js';

const LIMITS: Record<LimitWindow, bigint> = { day: 100_000_000n, month: 300_000_000n };
const SETTINGS: LimitSettings = {
  ...DEFAULT_LIMITS,
  limits: { ...DEFAULT_LIMITS.limits, USDC: LIMITS },
  newAccountDivisor: 1n,
};

let database: Database;
let nowMs = Date.UTC(2026, 0, 1, 0, 30);
let limits: AccountLimits;

beforeAll(async () => {
  database = await openTestDatabase();
  limits = createAccountLimits({ db: database.db, clock: { now: () => new Date(nowMs) }, settings: SETTINGS });
});
afterAll(async () => {
  await database?.close();
});

interface Moved {
  at: number;
  amount: bigint;
  givenBack: boolean;
}

type Step = { kind: 'move'; afterMs: number; amount: bigint } | { kind: 'fail'; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('move' as const),
      // Mostly minutes apart, sometimes hours or days, so that both windows fill and drain.
      afterMs: fc.oneof(
        fc.integer({ min: 0, max: 90 * 60_000 }),
        fc.integer({ min: 0, max: 30 * HOUR_MS }),
        fc.integer({ min: 0, max: 6 * 24 * HOUR_MS }),
      ),
      amount: fc.bigInt({ min: 1n, max: 70_000_000n }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('fail' as const), pick: fc.nat() }) },
);

/** What the model's movements add up to in the window as the buckets count it at `at`. */
function approximated(moved: readonly Moved[], window: LimitWindow, at: number): bigint {
  const from = windowFrom(new Date(at), window).getTime();
  const spanMs = WINDOW_SHAPE[window].spanMs;
  return moved.filter((m) => !m.givenBack && Math.floor(m.at / spanMs) * spanMs >= from).reduce((sum, m) => sum + m.amount, 0n);
}

/** The most any true rolling window of `window` ever held: windows ending at each movement are enough. */
function busiestTrueWindow(moved: readonly Moved[], window: LimitWindow): bigint {
  const lengthMs = WINDOW_SHAPE[window].lengthMs;
  let busiest = 0n;
  for (const end of moved) {
    const sum = moved.filter((m) => !m.givenBack && m.at > end.at - lengthMs && m.at <= end.at).reduce((s, m) => s + m.amount, 0n);
    if (sum > busiest) busiest = sum;
  }
  return busiest;
}

describe('limit buckets against a model', () => {
  it('never let any rolling window pass its limit, and count exactly what the model counts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 30 }), async (steps) => {
        const [accountId] = await createUsers(database.db, 1);
        const moved: Moved[] = [];
        for (const s of steps) {
          if (s.kind === 'fail') {
            const live = moved.filter((m) => !m.givenBack);
            if (live.length === 0) continue;
            const m = live[s.pick % live.length]!;
            await database.db
              .transaction()
              .execute((trx) =>
                giveVolumeBack(trx, { accountId: accountId!, currency: 'USDC', amountMinor: m.amount, at: new Date(m.at) }),
              );
            m.givenBack = true;
          } else {
            nowMs += s.afterMs;
            const wouldPass = (['day', 'month'] as const).some((w) => approximated(moved, w, nowMs) + s.amount > LIMITS[w]);
            let refused = false;
            try {
              await database.db.transaction().execute((trx) =>
                limits.checkAndRecord(trx, {
                  accountId: accountId!,
                  currency: 'USDC',
                  amountMinor: s.amount,
                  at: new Date(nowMs),
                  what: 'transfer',
                }),
              );
              moved.push({ at: nowMs, amount: s.amount, givenBack: false });
            } catch (error) {
              if (!(error instanceof AppError && error.code === 'limit_exceeded')) throw error;
              refused = true;
            }
            expect(refused).toBe(wouldPass);
          }
          for (const window of ['day', 'month'] as const) expect(busiestTrueWindow(moved, window)).toBeLessThanOrEqual(LIMITS[window]);
          const lines = await limits.lines(accountId!);
          for (const window of ['day', 'month'] as const) {
            const line = lines.find((l) => l.currency === 'USDC' && l.window === window)!;
            const used = approximated(moved, window, nowMs);
            expect(line.used).toBe(formatUsdc(used));
            expect(line.remaining).toBe(formatUsdc(used < LIMITS[window] ? LIMITS[window] - used : 0n));
          }
        }
      }),
      { numRuns: 12 },
    );
  });
});

function formatUsdc(minor: bigint): string {
  const text = `${minor / 1_000_000n}.${(minor % 1_000_000n).toString().padStart(6, '0')}`;
  return text.replace(/0+$/, '').replace(/\.$/, '');
}
