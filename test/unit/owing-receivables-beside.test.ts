// A card send batch reads what its recipients owe and its senders' limit standing in one statement
// (src/fiat/card-credit-locks.ts, decision 0065). Each half must answer as its own statement would:
// only the receivables below zero, every standing row, and the receivables still when the other
// read finds no row (the left join keeps one row for them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { standingFrom, standingQuery, addVolume } from '../../src/compliance/limits/limits-repository.js';
import { owingReceivables, owingReceivablesBeside } from '../../src/fiat/card-credit-locks.js';
import { receivableOf, specOf } from '../../src/ledger/ledger-accounts.js';
import { openTestDatabase } from '../helpers/test-database.js';
import { statementCounter } from '../helpers/statement-counter.js';
import { createUsers } from '../property/ledger-helpers.js';

let database: Database;
const counter = statementCounter();
const now = new Date();

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

/** A receivable of `debtor` in USD with this balance (negative: the debtor owes it). */
async function receivable(debtor: number, balance: bigint): Promise<void> {
  const spec = specOf(receivableOf(debtor, 'USD'));
  await database.db
    .insertInto('ledger_accounts')
    .values({ code: spec.code, owner_account_id: null, kind: spec.kind, asset: 'USD', allow_negative: true, balance })
    .execute();
}

describe('what recipients owe, read beside the senders’ standing', () => {
  it('answers both halves as their own statements would, in one statement', async () => {
    const [sender, owing, settled, none] = await createUsers(database.db, 4);
    await receivable(owing!, -1_200n);
    await receivable(settled!, 0n);
    await database.db
      .transaction()
      .execute((trx) => addVolume(trx, [{ accountId: sender!, currency: 'USD', amountMinor: 5_000n, at: now }]));
    const recipients = [owing!, settled!, none!].map((accountId) => ({ accountId, currency: 'USD' as const }));
    const input = { accountIds: [sender!], currencies: ['USD' as const], from: now };

    const db = counter.db(database.db);
    const together = await db.transaction().execute(async (trx) => {
      const before = counter.count;
      const read = await owingReceivablesBeside(trx, recipients, standingQuery(input));
      expect(counter.count - before).toBe(1);
      return read;
    });
    const apart = await database.db.transaction().execute(async (trx) => ({
      owing: await owingReceivables(trx, recipients),
      standing: standingFrom((await standingQuery(input).execute(trx)).rows),
    }));

    expect(together.owing).toEqual([receivableOf(owing!, 'USD')]);
    expect(together.owing).toEqual(apart.owing);
    const standing = standingFrom(together.rows);
    expect([...standing.keys()]).toEqual([sender]);
    expect(standing).toEqual(apart.standing);
    expect(
      standing
        .get(sender!)!
        .buckets.get('USD')!
        .map((b) => b.volume),
    ).toEqual([5_000n, 5_000n]);
  });

  it('still answers what is owed when the read beside it finds no row', async () => {
    const [debtor] = await createUsers(database.db, 1);
    await receivable(debtor!, -7n);
    const read = await database.db
      .transaction()
      .execute((trx) =>
        owingReceivablesBeside(trx, [{ accountId: debtor!, currency: 'USD' }], sql<{ id: number }>`select id from accounts where false`),
      );
    expect(read).toEqual({ owing: [receivableOf(debtor!, 'USD')], rows: [] });
  });

  it('answers nothing owed and every row beside when no recipient owes', async () => {
    const [a, b] = await createUsers(database.db, 2);
    const read = await database.db
      .transaction()
      .execute((trx) =>
        owingReceivablesBeside(
          trx,
          [{ accountId: a!, currency: 'EUR' }],
          sql<{ id: number }>`select id from accounts where id = any(${[a!, b!]}::integer[]) order by id`,
        ),
      );
    expect(read).toEqual({ owing: [], rows: [{ id: a }, { id: b }] });
  });
});
