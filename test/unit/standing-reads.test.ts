// The limit checks made outside a movement's transaction (a quote, an early refusal) are
// coalesced (src/compliance/limits/standing-reads.ts): the checks of one turn share one statement,
// each is answered as it would be alone, and volume committed before a check is counted by it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { createAccountLimits, type AccountLimits } from '../../src/compliance/limits/limits-service.js';
import { addVolume } from '../../src/compliance/limits/limits-repository.js';
import { DEFAULT_LIMITS, type LimitSettings } from '../../src/config/limit-settings.js';
import { AppError } from '../../src/platform/errors.js';
import { openTestDatabase } from '../helpers/test-database.js';
import { statementCounter } from '../helpers/statement-counter.js';
import { createUsers } from '../property/ledger-helpers.js';

const SETTINGS: LimitSettings = {
  ...DEFAULT_LIMITS,
  limits: { ...DEFAULT_LIMITS.limits, USDC: { day: 100_000_000n, month: 300_000_000n } },
  newAccountDivisor: 1n,
};

let database: Database;
let limits: AccountLimits;
const counter = statementCounter();
const now = new Date();

beforeAll(async () => {
  database = await openTestDatabase();
  limits = createAccountLimits({ db: counter.db(database.db), clock: { now: () => now }, settings: SETTINGS });
});
afterAll(async () => {
  await database?.close();
});

const check = (accountId: number, amountMinor: bigint) =>
  limits.refuseBeyond({ accountId, currency: 'USDC', amountMinor, what: 'transfer' }).then(
    () => 'fits',
    (error: unknown) => (error instanceof AppError ? error.code : 'other'),
  );

describe('limit checks outside a transaction', () => {
  it('share one statement per turn, each answered for its own account and amount', async () => {
    const [a, b, c] = await createUsers(database.db, 3);
    await database.db
      .transaction()
      .execute((trx) => addVolume(trx, [{ accountId: a!, currency: 'USDC', amountMinor: 90_000_000n, at: now }]));
    const before = counter.count;
    const answers = await Promise.all([check(a!, 20_000_000n), check(b!, 20_000_000n), check(c!, 100_000_001n), check(a!, 10_000_000n)]);
    expect(answers).toEqual(['limit_exceeded', 'fits', 'limit_exceeded', 'fits']);
    expect(counter.count - before).toBe(1);
  });

  it('count volume committed before the check', async () => {
    const [a] = await createUsers(database.db, 1);
    expect(await check(a!, 60_000_000n)).toBe('fits');
    await database.db
      .transaction()
      .execute((trx) => addVolume(trx, [{ accountId: a!, currency: 'USDC', amountMinor: 50_000_000n, at: now }]));
    expect(await check(a!, 60_000_000n)).toBe('limit_exceeded');
  });
});
