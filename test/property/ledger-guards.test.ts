// The schema's own guards on the ledger (migration 0011): whatever code writes to the tables, the
// database refuses a row that breaks the books. Each test is a direct SQL write around the ledger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { commitOperation } from '../helpers/ledger.js';
import { platformAccount, userAvailable } from '../../src/ledger/ledger-accounts.js';
import { openTestDatabase } from '../helpers/test-database.js';
import { createUsers } from './ledger-helpers.js';

let database: Database;
let user: number;
let other: number;

beforeAll(async () => {
  database = await openTestDatabase();
  [user, other] = (await createUsers(database.db, 2)) as [number, number];
  await commitOperation(database.db, {
    operationId: 'seed-usd',
    transfers: [
      {
        type: 'posted',
        debit: platformAccount('processor_clearing', 'USD'),
        credit: userAvailable(user, 'USD'),
        amountMinor: 100n,
        code: 'test',
      },
    ],
  });
  await commitOperation(database.db, {
    operationId: 'seed-eur',
    transfers: [
      {
        type: 'posted',
        debit: platformAccount('processor_clearing', 'EUR'),
        credit: userAvailable(other, 'EUR'),
        amountMinor: 100n,
        code: 'test',
      },
    ],
  });
});
afterAll(async () => {
  await database?.close();
});

async function accountId(code: string): Promise<number> {
  const row = await database.db.selectFrom('ledger_accounts').select('id').where('code', '=', code).executeTakeFirstOrThrow();
  return row.id;
}

/** Runs `statement` in a transaction that is always rolled back; resolves to the database's refusal, or null if it was accepted. */
async function refusal(statement: ReturnType<typeof sql>): Promise<string | null> {
  try {
    await database.db.transaction().execute(async (trx) => {
      await statement.execute(trx);
      throw new Error('accepted');
    });
  } catch (error) {
    return (error as Error).message === 'accepted' ? null : (error as Error).message;
  }
  return null;
}

describe('ledger schema guards', () => {
  it('refuses an account in an unknown asset', async () => {
    expect(
      await refusal(
        sql`insert into ledger_accounts (code, kind, asset, allow_negative) values ('platform:fees:XYZ', 'fees', 'XYZ', false)`,
      ),
    ).not.toBeNull();
    // A known asset is accepted (the control).
    expect(
      await refusal(
        sql`insert into ledger_accounts (code, kind, asset, allow_negative) values ('platform:fees:GBP', 'fees', 'GBP', false)`,
      ),
    ).toBeNull();
  });

  it('refuses a transfer in an unknown asset', async () => {
    const debit = await accountId('platform:processor_clearing:USD');
    const credit = await accountId(`user:${user}:available:USD`);
    expect(
      await refusal(sql`insert into ledger_transfers (operation_id, kind, debit_account_id, credit_account_id, asset, amount, code)
                             values ('x', 'posted', ${debit}, ${credit}, 'XYZ', 1, 'test')`),
    ).not.toBeNull();
    expect(
      await refusal(sql`insert into ledger_transfers (operation_id, kind, debit_account_id, credit_account_id, asset, amount, code)
                             values ('x', 'posted', ${debit}, ${credit}, 'USD', 1, 'test')`),
    ).toBeNull();
  });

  it("refuses a transfer whose asset is not both accounts' asset", async () => {
    const usdClearing = await accountId('platform:processor_clearing:USD');
    const usdUser = await accountId(`user:${user}:available:USD`);
    const eurUser = await accountId(`user:${other}:available:EUR`);
    // Asset differs from both accounts.
    expect(
      await refusal(sql`insert into ledger_transfers (operation_id, kind, debit_account_id, credit_account_id, asset, amount, code)
                             values ('x', 'posted', ${usdClearing}, ${usdUser}, 'EUR', 1, 'test')`),
    ).not.toBeNull();
    // Debit side matches, credit side does not.
    expect(
      await refusal(sql`insert into ledger_transfers (operation_id, kind, debit_account_id, credit_account_id, asset, amount, code)
                             values ('x', 'posted', ${usdClearing}, ${eurUser}, 'USD', 1, 'test')`),
    ).not.toBeNull();
    // Credit side matches, debit side does not.
    expect(
      await refusal(sql`insert into ledger_transfers (operation_id, kind, debit_account_id, credit_account_id, asset, amount, code)
                             values ('x', 'posted', ${usdClearing}, ${eurUser}, 'EUR', 1, 'test')`),
    ).not.toBeNull();
  });

  it('refuses a transfer naming an account that does not exist, on either side', async () => {
    // The (account, asset) foreign keys alone (migration 0015 dropped the single-column ones) keep
    // every ledger row tied to existing accounts.
    const usdClearing = await accountId('platform:processor_clearing:USD');
    const missing = 2_000_000_000;
    for (const [debit, credit] of [
      [usdClearing, missing],
      [missing, usdClearing],
    ]) {
      expect(
        await refusal(sql`insert into ledger_transfers (operation_id, kind, debit_account_id, credit_account_id, asset, amount, code)
                               values ('x', 'posted', ${debit}, ${credit}, 'USD', 1, 'test')`),
      ).toMatch(/foreign key/);
    }
  });

  it('refuses a statement of many transfers when one of them names a wrong account, as the batch writes them', async () => {
    // The group commit writes a batch's rows in one INSERT ... SELECT from arrays: one wrong row refuses them all.
    const usdClearing = await accountId('platform:processor_clearing:USD');
    const usdUser = await accountId(`user:${user}:available:USD`);
    const eurUser = await accountId(`user:${other}:available:EUR`);
    const rows = (credits: number[]) => sql`
      with recorded as (
        insert into ledger_transfers (operation_id, kind, debit_account_id, credit_account_id, asset, amount, code)
        select 'x', 'posted', ${usdClearing}, c, 'USD', 1, 'test' from unnest(${credits}::integer[]) as c
        returning id)
      select count(*) from recorded`;
    expect(await refusal(rows([usdUser, usdUser, eurUser, usdUser]))).toMatch(/foreign key/);
    expect(await refusal(rows([usdUser, 2_000_000_000]))).toMatch(/foreign key/);
    // All of them right (the control).
    expect(await refusal(rows([usdUser, usdUser, usdUser]))).toBeNull();
  });

  it('refuses to delete a ledger account that transfers name, or to change its id or asset', async () => {
    // The other side of the same foreign keys: an account stays what its transfers say it is.
    const usdUser = `user:${user}:available:USD`;
    expect(await refusal(sql`delete from ledger_accounts where code = ${usdUser}`)).toMatch(/foreign key/);
    expect(await refusal(sql`update ledger_accounts set asset = 'EUR' where code = ${usdUser}`)).toMatch(/foreign key/);
    expect(await refusal(sql`update ledger_accounts set id = default where code = ${usdUser}`)).toMatch(/foreign key/);
    // Its balances move (the ledger's own update), and an account no transfer names may go (the controls).
    expect(await refusal(sql`update ledger_accounts set balance = balance where code = ${usdUser}`)).toBeNull();
    await database.db
      .insertInto('ledger_accounts')
      .values({ code: 'platform:fees:JPY', kind: 'fees', asset: 'JPY', allow_negative: false })
      .execute();
    expect(await refusal(sql`update ledger_accounts set asset = 'GBP' where code = 'platform:fees:JPY'`)).toBeNull();
    expect(await refusal(sql`delete from ledger_accounts where code = 'platform:fees:JPY'`)).toBeNull();
    await database.db.deleteFrom('ledger_accounts').where('code', '=', 'platform:fees:JPY').execute();
  });

  it('refuses to truncate the ledger accounts while transfers name them', async () => {
    expect(await refusal(sql`truncate ledger_accounts`)).toMatch(/foreign key/);
    // Both tables together leave no transfer naming a missing account (the control).
    expect(await refusal(sql`truncate ledger_transfers, ledger_accounts`)).toBeNull();
  });

  it('refuses to change or delete a recorded transfer', async () => {
    const count = await database.db
      .selectFrom('ledger_transfers')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBeGreaterThan(0);
    expect(await refusal(sql`update ledger_transfers set amount = amount + 1`)).toMatch(/immutable/);
    expect(await refusal(sql`update ledger_transfers set code = 'edited'`)).toMatch(/immutable/);
    expect(await refusal(sql`delete from ledger_transfers`)).toMatch(/immutable/);
  });

  it('refuses allow_negative on an account that is not a platform account', async () => {
    expect(
      await refusal(sql`insert into ledger_accounts (code, owner_account_id, kind, asset, allow_negative)
                             values (${`user:${user}:available:GBP`}, ${user}, 'available', 'GBP', true)`),
    ).not.toBeNull();
    expect(
      await refusal(sql`update ledger_accounts set allow_negative = true where code = ${`user:${user}:available:USD`}`),
    ).not.toBeNull();
    // A platform account may (the control).
    expect(
      await refusal(
        sql`insert into ledger_accounts (code, kind, asset, allow_negative) values ('platform:chain_custody:EURC', 'chain_custody', 'EURC', true)`,
      ),
    ).toBeNull();
  });
});
