// What the group commit (src/ledger/group-commit.ts) owes its members' neighbours, with the
// stablecoin transfer service's writer: a member refused for its balance is refused alone, its
// batch's other members committing in the same transaction and nothing of it left behind (not
// even the ledger accounts only it named); and batches never deadlock with the single operations
// the other services apply in transactions of their own over the same accounts. On PostgreSQL
// (DATABASE_URL) the batches and the operations really race; on PGlite they run one at a time and
// the same outcomes must hold.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { createGroupCommit, type BatchReport } from '../../src/ledger/group-commit.js';
import { platformAccount, userAvailable } from '../../src/ledger/ledger-accounts.js';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { createAccountLimits } from '../../src/compliance/limits/limits-service.js';
import { DEFAULT_LIMITS } from '../../src/config/limit-settings.js';
import { systemClock } from '../../src/platform/clock.js';
import { AppError } from '../../src/platform/errors.js';
import { newId } from '../../src/platform/ids.js';
import { createTransferBatchWriter, transferMember } from '../../src/stablecoin/stablecoin-transfer-batch.js';
import type { StablecoinTransfer } from '../../src/stablecoin/stablecoin-transfer.js';
import { commitOperation, feesOf } from '../helpers/ledger.js';
import { openTestDatabase } from '../helpers/test-database.js';
import { createUsers } from './ledger-helpers.js';

const HANDLES = { sender: 'PA-SENDER00', recipient: 'PA-RECIPIEN' };

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

/** The service's writer, with the default limits (these amounts are far below them). */
function groupCommitOf(options: { maxBatch: number; maxWaitMs: number; concurrency: number; reports?: BatchReport[] }) {
  const writer = createTransferBatchWriter({
    limits: createAccountLimits({ db: database.db, clock: systemClock, settings: DEFAULT_LIMITS }),
  });
  return createGroupCommit(database.db, writer, { ...options, maxQueued: 1000, onBatch: (report) => options.reports?.push(report) });
}

/** An internal USDC transfer of `amountMinor` (1% of it the fee), as the transfer service plans it. */
function transfer(from: number, to: number, amountMinor: bigint): StablecoinTransfer {
  return {
    id: newId('sct'),
    senderAccountId: from,
    recipientAccountId: to,
    currency: 'USDC',
    amountMinor,
    feeMinor: amountMinor / 100n,
    status: 'complete',
    idempotencyKey: null,
    createdAt: new Date(),
  };
}

async function fund(owner: number, amountMinor: bigint): Promise<void> {
  await commitOperation(database.db, {
    operationId: newId('fund'),
    transfers: [
      {
        type: 'posted',
        debit: platformAccount('chain_custody', 'USDC'),
        credit: userAvailable(owner, 'USDC'),
        amountMinor,
        code: 'fund',
      },
    ],
  });
}

async function spendable(owner: number): Promise<bigint | undefined> {
  const row = await database.db
    .selectFrom('ledger_accounts')
    .select(['balance', 'pending_debits'])
    .where('code', '=', `user:${owner}:available:USDC`)
    .executeTakeFirst();
  return row && row.balance - row.pending_debits;
}

const isInsufficient = (error: unknown) => error instanceof AppError && error.code === 'insufficient_balance';

describe('a member refused for its balance', () => {
  it('is refused alone: the other members of its batch commit, and nothing of it is left', async () => {
    const [payer, payee, broke, stranger] = (await createUsers(database.db, 4)) as [number, number, number, number];
    await fund(payer, 10_000n);
    const feesBefore = await feesOf(database.db, 'USDC');
    const reports: BatchReport[] = [];
    // Four members fill one batch at once: the second is short after the first has spent, the third's
    // sender and recipient have no ledger account yet (the batch creates both for it, then removes them).
    const single = groupCommitOf({ maxBatch: 4, maxWaitMs: 1_000, concurrency: 1, reports });
    const intents = [
      transfer(payer, payee, 6_000n),
      transfer(payer, payee, 5_000n),
      transfer(broke, stranger, 100n),
      transfer(payer, payee, 4_000n),
    ];
    const results = await Promise.allSettled(intents.map((intent) => single.run(transferMember(intent, HANDLES))));

    expect(reports).toEqual([{ size: 4, ending: 'committed' }]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    for (const r of results) if (r.status === 'rejected') expect(isInsufficient(r.reason), String(r.reason)).toBe(true);
    expect(await spendable(payer)).toBe(0n);
    expect(await spendable(payee)).toBe(6_000n - 60n + (4_000n - 40n));
    expect((await feesOf(database.db, 'USDC')) - feesBefore).toBe(100n);
    expect(await spendable(broke)).toBeUndefined();
    expect(await spendable(stranger)).toBeUndefined();
    const records = await database.db
      .selectFrom('stablecoin_transfers')
      .select('id')
      .where('sender_account_id', 'in', [payer, broke])
      .execute();
    expect(records.map((r) => r.id).sort()).toEqual([intents[0]!.id, intents[3]!.id].sort());
    expect(await checkLedgerInvariants(database.db)).toEqual([]);
  });
});

describe('batches and single operations over the same accounts', () => {
  it('do not deadlock: every batch commits, every operation applies, every unit is kept', async () => {
    const people = await createUsers(database.db, 4);
    for (const p of people) await fund(p, 10_000_000n);
    const feesBefore = await feesOf(database.db, 'USDC');
    const reports: BatchReport[] = [];
    const batches = groupCommitOf({ maxBatch: 4, maxWaitMs: 2, concurrency: 3, reports });
    const person = (i: number) => people[i % people.length]!;
    const key = (i: number) => userAvailable(person(i), 'USDC');
    const jobs: Promise<unknown>[] = [];
    let members = 0;
    let overdrafts = 0;
    for (let i = 0; i < 40; i++) {
      if (i % 2) {
        // Members whose accounts come in a rotating order, one of them an overdraft refused alone.
        for (const [from, to, amount] of [
          [i, i + 1, 100n],
          [i + 2, i + 3, 100n],
          [i + 3, i, 20_000_000n],
        ] as const) {
          members++;
          jobs.push(
            batches.run(transferMember(transfer(person(from), person(to), amount), HANDLES)).catch((error: unknown) => {
              if (!isInsufficient(error)) throw error;
              overdrafts++;
            }),
          );
        }
      } else {
        // A service's operation in its own transaction, naming the same accounts in another order and the fees account.
        jobs.push(
          commitOperation(database.db, {
            operationId: newId('single'),
            transfers: [
              { type: 'posted', debit: key(i + 3), credit: key(i + 2), amountMinor: 50n, code: 'test' },
              { type: 'posted', debit: key(i + 1), credit: key(i), amountMinor: 50n, code: 'test' },
              { type: 'posted', debit: key(i), credit: platformAccount('fees', 'USDC'), amountMinor: 5n, code: 'test' },
            ],
          }),
        );
      }
    }
    const results = await Promise.allSettled(jobs);
    expect(results.filter((r) => r.status === 'rejected').map((r) => String(r.reason))).toEqual([]);
    expect(overdrafts).toBe(20);
    // No batch failed (a deadlock would) or was run again member by member.
    expect(reports.filter((r) => r.ending !== 'committed')).toEqual([]);
    expect(reports.reduce((n, r) => n + r.size, 0)).toBe(members);
    // Each batch member that went through paid a fee of 1; each single operation 5.
    const fees = (await feesOf(database.db, 'USDC')) - feesBefore;
    expect(fees).toBe(40n * 1n + 20n * 5n);
    const total = (await Promise.all(people.map((p) => spendable(p)))).reduce((x, y) => x! + y!, 0n);
    expect(total).toBe(4n * 10_000_000n - fees);
    expect(await checkLedgerInvariants(database.db)).toEqual([]);
  });
});
