// The ledger under concurrency (DESIGN §5: user accounts never go below zero, under any
// concurrency). On PostgreSQL (DATABASE_URL) the test database has a pool of 20 connections, so
// the operations really race; on PGlite the driver runs them one at a time and the same outcomes
// must hold.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Database } from '../../src/db/database.js';
import type { Asset } from '../../src/money/assets.js';
import type { Operation, TransferInput } from '../../src/ledger/ledger.js';
import { platformAccount, userAvailable, type LedgerAccountKey } from '../../src/ledger/ledger-accounts.js';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { commitOperation } from '../helpers/ledger.js';
import { openTestDatabase } from '../helpers/test-database.js';
import { createUsers, settleAll, snapshotLedger } from './ledger-helpers.js';

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

let operationCounter = 0;
const operation = (transfers: TransferInput[]): Operation => ({ operationId: `cc-${++operationCounter}`, transfers });
const posted = (debit: LedgerAccountKey, credit: LedgerAccountKey, amountMinor: bigint, code = 'test'): TransferInput => ({
  type: 'posted',
  debit,
  credit,
  amountMinor,
  code,
});

async function fund(owner: number, asset: Asset, amountMinor: bigint): Promise<void> {
  await commitOperation(
    database.db,
    operation([posted(platformAccount('processor_clearing', asset), userAvailable(owner, asset), amountMinor, 'fund')]),
  );
}

async function spendable(owner: number, asset: Asset): Promise<bigint> {
  const row = await database.db
    .selectFrom('ledger_accounts')
    .select(['balance', 'pending_debits'])
    .where('owner_account_id', '=', owner)
    .where('asset', '=', asset)
    .executeTakeFirst();
  return row ? row.balance - row.pending_debits : 0n;
}

describe('concurrent debits of one funded account', () => {
  it('50 debits of 70 against 1000: exactly 14 succeed, 36 are refused, 20 is left', async () => {
    const [payer, payee] = await createUsers(database.db, 2);
    await fund(payer!, 'USD', 1000n);
    const attempts = [...Array(50).keys()].map((i) =>
      commitOperation(
        database.db,
        operation([posted(userAvailable(payer!, 'USD'), i % 2 ? userAvailable(payee!, 'USD') : platformAccount('fees', 'USD'), 70n)]),
      ),
    );
    const { ok, insufficient, other } = await settleAll(attempts);
    expect(other).toEqual([]);
    expect(ok.length).toBe(14);
    expect(insufficient).toBe(36);
    expect(await spendable(payer!, 'USD')).toBe(1000n - 14n * 70n);
    expect(await checkLedgerInvariants(database.db)).toEqual([]);
  });

  it('concurrent multi-transfer operations (amount + fee) never overdraw, and each is all or nothing', async () => {
    const [payer, payee] = await createUsers(database.db, 2);
    await fund(payer!, 'EUR', 10_000n);
    // Each operation moves 1000 to the payee and 25 to fees: 9 fit in 10,000 (9225), the 10th does not.
    const attempts = [...Array(40).keys()].map(() =>
      commitOperation(
        database.db,
        operation([
          posted(userAvailable(payer!, 'EUR'), userAvailable(payee!, 'EUR'), 1000n),
          posted(userAvailable(payer!, 'EUR'), platformAccount('fees', 'EUR'), 25n),
        ]),
      ),
    );
    const { ok, insufficient, other } = await settleAll(attempts);
    expect(other).toEqual([]);
    expect(ok.length).toBe(9);
    expect(insufficient).toBe(31);
    expect(await spendable(payer!, 'EUR')).toBe(10_000n - 9n * 1025n);
    expect(await spendable(payee!, 'EUR')).toBe(9n * 1000n);
    expect(await checkLedgerInvariants(database.db)).toEqual([]);
  });

  it('concurrent pending holds and posted debits share one balance', async () => {
    const [payer, payee] = await createUsers(database.db, 2);
    await fund(payer!, 'USDC', 1_000_000n);
    const attempts = [...Array(30).keys()].map((i) =>
      commitOperation(
        database.db,
        operation([
          {
            type: i % 3 ? 'posted' : 'pending',
            debit: userAvailable(payer!, 'USDC'),
            credit: userAvailable(payee!, 'USDC'),
            amountMinor: 150_000n,
            code: 'test',
          },
        ]),
      ),
    );
    const { ok, insufficient, other } = await settleAll(attempts);
    expect(other).toEqual([]);
    expect(ok.length).toBe(6);
    expect(insufficient).toBe(24);
    expect(await spendable(payer!, 'USDC')).toBe(100_000n);
    expect(await checkLedgerInvariants(database.db)).toEqual([]);
  });

  it('a pending transfer resolved concurrently many times is resolved exactly once', async () => {
    const [payer, payee] = await createUsers(database.db, 2);
    await fund(payer!, 'GBP', 500n);
    const [pending] = await commitOperation(
      database.db,
      operation([
        { type: 'pending', debit: userAvailable(payer!, 'GBP'), credit: userAvailable(payee!, 'GBP'), amountMinor: 300n, code: 'p' },
      ]),
    );
    const attempts = [...Array(20).keys()].map((i) =>
      commitOperation(
        database.db,
        operation([{ type: i % 2 ? 'post_pending' : 'void_pending', pendingTransferId: pending!.id, code: 'resolve' }]),
      ),
    );
    const results = await Promise.allSettled(attempts);
    const won = results.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
    expect(won.length).toBe(1);
    const resolutions = await database.db
      .selectFrom('ledger_transfers')
      .select('kind')
      .where('pending_transfer_id', '=', pending!.id)
      .execute();
    expect(resolutions.map((r) => r.kind)).toEqual([won[0]!.kind]);
    const posted = won[0]!.kind === 'post_pending';
    expect(await spendable(payer!, 'GBP')).toBe(posted ? 200n : 500n);
    expect(await spendable(payee!, 'GBP')).toBe(posted ? 300n : 0n);
    expect(await checkLedgerInvariants(database.db)).toEqual([]);
  });
});

describe('concurrent opposite transfers', () => {
  it('A→B and B→A at once, many times: no deadlock, no lost update, invariants hold', async () => {
    const [a, b] = await createUsers(database.db, 2);
    await fund(a!, 'USD', 5_000n);
    await fund(b!, 'USD', 5_000n);
    const A = userAvailable(a!, 'USD');
    const B = userAvailable(b!, 'USD');
    const fees = platformAccount('fees', 'USD');
    const feesBalance = async () =>
      (await database.db.selectFrom('ledger_accounts').select('balance').where('code', '=', 'platform:fees:USD').executeTakeFirst())
        ?.balance ?? 0n;
    const feesBefore = await feesBalance();
    // Amounts large enough that some must be refused; each operation also pays a fee, and the
    // transfers are listed in both orders, so the accounts are locked in differing input orders.
    const plans = [...Array(120).keys()].map((i) => {
      const amount = BigInt(50 + ((i * 37) % 400));
      const fee = BigInt(1 + (i % 7));
      const [from, to] = i % 2 ? [A, B] : [B, A];
      const transfers =
        i % 4 < 2 ? [posted(from, to, amount), posted(from, fees, fee)] : [posted(from, fees, fee), posted(from, to, amount)];
      return { fromA: i % 2 === 1, amount, fee, transfers };
    });
    const results = await Promise.allSettled(plans.map((p) => commitOperation(database.db, operation(p.transfers))));
    let expectedA = 5_000n;
    let expectedB = 5_000n;
    let expectedFees = 0n;
    let succeeded = 0;
    for (const [i, r] of results.entries()) {
      const p = plans[i]!;
      if (r.status === 'rejected') {
        expect(r.reason).toMatchObject({ code: 'insufficient_balance' });
        continue;
      }
      succeeded++;
      if (p.fromA) {
        expectedA -= p.amount + p.fee;
        expectedB += p.amount;
      } else {
        expectedB -= p.amount + p.fee;
        expectedA += p.amount;
      }
      expectedFees += p.fee;
    }
    expect(succeeded).toBeGreaterThan(10);
    expect(await spendable(a!, 'USD')).toBe(expectedA);
    expect(await spendable(b!, 'USD')).toBe(expectedB);
    expect(await feesBalance()).toBe(feesBefore + expectedFees);
    expect(await checkLedgerInvariants(database.db)).toEqual([]);
  });

  it('two users paying each other for the first time in a currency, at once, do not deadlock', async () => {
    // Each operation funds its sender from the processor and pays the other: both create the same
    // two new ledger accounts, in opposite orders.
    const pairs = await Promise.all([...Array(10).keys()].map(() => createUsers(database.db, 2)));
    const ops = pairs.flatMap(([a, b]) => [
      operation([
        posted(platformAccount('processor_clearing', 'GBP'), userAvailable(a!, 'GBP'), 1_000n),
        posted(userAvailable(a!, 'GBP'), userAvailable(b!, 'GBP'), 400n),
      ]),
      operation([
        posted(platformAccount('processor_clearing', 'GBP'), userAvailable(b!, 'GBP'), 1_000n),
        posted(userAvailable(b!, 'GBP'), userAvailable(a!, 'GBP'), 300n),
      ]),
    ]);
    const { ok, insufficient, other } = await settleAll(ops.map((op) => commitOperation(database.db, op)));
    expect(other.map(String)).toEqual([]);
    expect(insufficient).toBe(0);
    expect(ok.length).toBe(ops.length);
    for (const [a, b] of pairs) {
      expect(await spendable(a!, 'GBP')).toBe(1_000n - 400n + 300n);
      expect(await spendable(b!, 'GBP')).toBe(1_000n - 300n + 400n);
    }
    expect(await checkLedgerInvariants(database.db)).toEqual([]);
  });
});

describe('concurrent debits (property)', () => {
  it(
    'exactly min(attempts, floor(balance / amount)) debits succeed, for random balance, amount and concurrency',
    { timeout: 120_000 },
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.bigInt({ min: 1n, max: 100_000n }),
          fc.bigInt({ min: 1n, max: 20_000n }),
          fc.integer({ min: 1, max: 40 }),
          fc.constantFrom<Asset>('USD', 'JPY', 'USDC'),
          async (balance, amount, concurrency, asset) => {
            const [payer, payee] = await createUsers(database.db, 2);
            await fund(payer!, asset, balance);
            const before = await snapshotLedger(database.db);
            const attempts = [...Array(concurrency).keys()].map(() =>
              commitOperation(database.db, operation([posted(userAvailable(payer!, asset), userAvailable(payee!, asset), amount)])),
            );
            const { ok, insufficient, other } = await settleAll(attempts);
            const fits = balance / amount;
            const expected = Number(fits < BigInt(concurrency) ? fits : BigInt(concurrency));
            expect(other.map(String)).toEqual([]);
            expect(ok.length).toBe(expected);
            expect(insufficient).toBe(concurrency - expected);
            expect(await spendable(payer!, asset)).toBe(balance - BigInt(expected) * amount);
            expect(await spendable(payee!, asset)).toBe(BigInt(expected) * amount);
            const after = await snapshotLedger(database.db);
            expect(after.transferCount).toBe(before.transferCount + expected);
            expect(await checkLedgerInvariants(database.db)).toEqual([]);
          },
        ),
        { numRuns: 25 },
      );
    },
  );
});
