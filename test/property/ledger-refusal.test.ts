// A refused operation is atomic inside applyOperation itself: a caller that catches
// insufficient_balance and commits its own transaction must find the ledger exactly as it was,
// without relying on its rollback (issue 11). A refusal inside a group commit's batch is tested
// with the group commit (group-commit.test.ts).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { applyOperation } from '../../src/ledger/ledger.js';
import { platformAccount, userAvailable } from '../../src/ledger/ledger-accounts.js';
import { AppError } from '../../src/platform/errors.js';
import { commitOperation } from '../helpers/ledger.js';
import { openTestDatabase } from '../helpers/test-database.js';
import { createUsers, expectInsufficientBalance, resetLedger, snapshotLedger } from './ledger-helpers.js';

let database: Database;
let users: number[];

beforeAll(async () => {
  database = await openTestDatabase();
  users = await createUsers(database.db, 3);
});
afterAll(async () => {
  await database?.close();
});
beforeEach(async () => {
  await resetLedger(database.db);
});

async function fund(user: number, amountMinor: bigint): Promise<void> {
  await commitOperation(database.db, {
    operationId: `fund:${user}:${amountMinor}`,
    transfers: [
      {
        type: 'posted',
        debit: platformAccount('processor_clearing', 'USD'),
        credit: userAvailable(user, 'USD'),
        amountMinor,
        code: 'test_fund',
      },
    ],
  });
}

describe('a refused operation', () => {
  it('leaves the ledger unchanged even when the caller catches the refusal and commits', async () => {
    const [a, b, c] = users as [number, number, number];
    await fund(a, 1_000n);
    await fund(b, 100n);
    const before = await snapshotLedger(database.db);
    let caught: unknown;
    await database.db.transaction().execute(async (trx) => {
      try {
        // a can pay, b cannot: the accounts that pass their check must not move either.
        await applyOperation(trx, {
          operationId: 'half',
          transfers: [
            { type: 'posted', debit: userAvailable(a, 'USD'), credit: userAvailable(c, 'USD'), amountMinor: 500n, code: 'test' },
            { type: 'posted', debit: userAvailable(b, 'USD'), credit: userAvailable(c, 'USD'), amountMinor: 500n, code: 'test' },
          ],
        });
      } catch (error) {
        caught = error;
      }
    });
    expectInsufficientBalance(caught);
    expect(await snapshotLedger(database.db)).toEqual(before);
  });

  it('leaves no account behind that it created, and the transaction stays usable', async () => {
    const [a, b] = users as [number, number];
    const before = await snapshotLedger(database.db);
    await database.db.transaction().execute(async (trx) => {
      await expect(
        applyOperation(trx, {
          operationId: 'new-accounts',
          transfers: [{ type: 'posted', debit: userAvailable(a, 'EUR'), credit: userAvailable(b, 'EUR'), amountMinor: 1n, code: 'test' }],
        }),
      ).rejects.toBeInstanceOf(AppError);
      await sql`select 1`.execute(trx);
    });
    expect(await snapshotLedger(database.db)).toEqual(before);
  });
});
