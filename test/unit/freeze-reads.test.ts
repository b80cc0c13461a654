// The freezes quotes read (src/compliance/freezes/freeze-reads.ts): the reads of one turn share one
// statement, each answered for its own account, and a freeze committed before a read is seen by it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { coalescedFreezes, refuseIfFrozenBy, type FreezeReads } from '../../src/compliance/freezes/freeze-reads.js';
import { writeFreeze } from '../../src/compliance/freezes/freezes-repository.js';
import { AppError } from '../../src/platform/errors.js';
import { openTestDatabase } from '../helpers/test-database.js';
import { statementCounter } from '../helpers/statement-counter.js';
import { createUsers } from '../property/ledger-helpers.js';

let database: Database;
let reads: FreezeReads;
const counter = statementCounter();

beforeAll(async () => {
  database = await openTestDatabase();
  reads = coalescedFreezes(counter.db(database.db));
});
afterAll(async () => {
  await database?.close();
});

const freeze = (accountId: number, scope: 'all' | 'payouts') =>
  database.db
    .transaction()
    .execute((trx) => writeFreeze(trx, accountId, { id: `frz_${accountId}_${scope}`, scope, since: new Date(), by: 'system' }));

const refusal = (accountId: number) =>
  refuseIfFrozenBy(reads, accountId, 'other').then(
    () => 'none',
    (error: unknown) => (error instanceof AppError ? error.code : 'other'),
  );

describe('the freezes quotes read', () => {
  it('share one statement per turn, each answered for its own account', async () => {
    const [open, frozen, payoutsOnly] = await createUsers(database.db, 3);
    await freeze(frozen!, 'all');
    await freeze(payoutsOnly!, 'payouts');
    const before = counter.count;
    const answers = await Promise.all([refusal(open!), refusal(frozen!), refusal(payoutsOnly!), refusal(frozen!), refusal(999_999)]);
    expect(answers).toEqual(['none', 'account_frozen', 'none', 'account_frozen', 'none']);
    expect(counter.count - before).toBe(1);
  });

  it('see a freeze committed before the read', async () => {
    const [account] = await createUsers(database.db, 1);
    expect(await refusal(account!)).toBe('none');
    await freeze(account!, 'all');
    expect(await refusal(account!)).toBe('account_frozen');
  });
});
