// Property tests of the double-entry ledger (DESIGN §5) over random sequences of operations, on
// whichever database the test helper opens (PGlite, or PostgreSQL when DATABASE_URL is set).
// After every step: the sum per asset is zero and pending debits equal pending credits; no user
// account is below zero; every account equals an independent in-memory model; a refused operation
// changes nothing; a pending transfer is posted or voided once only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Database } from '../../src/db/database.js';
import type { Asset } from '../../src/money/assets.js';
import type { AppliedTransfer, Operation, TransferInput } from '../../src/ledger/ledger.js';
import { platformAccount, specOf, userAvailable, type LedgerAccountKey } from '../../src/ledger/ledger-accounts.js';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { commitOperation } from '../helpers/ledger.js';
import { openTestDatabase } from '../helpers/test-database.js';
import { runUntilCovered } from '../helpers/until-covered.js';
import {
  createUsers,
  expectInsufficientBalance,
  resetLedger,
  snapshotLedger,
  type AccountRow,
  type LedgerSnapshot,
} from './ledger-helpers.js';

const ASSETS: readonly Asset[] = ['USD', 'JPY', 'USDC'];
const USER_COUNT = 3;

let database: Database;
let users: number[];

beforeAll(async () => {
  database = await openTestDatabase();
  users = await createUsers(database.db, USER_COUNT);
});
afterAll(async () => {
  await database?.close();
});

// ---------------------------------------------------------------------------------------------
// The model: every account's balance and pending amounts, and every pending transfer.

interface ModelAccount {
  balance: bigint;
  pendingDebits: bigint;
  pendingCredits: bigint;
  allowNegative: boolean;
}

interface ModelPending {
  id: bigint;
  debit: string;
  credit: string;
  amount: bigint;
  resolved: boolean;
}

class Model {
  accounts = new Map<string, ModelAccount>();
  pendings: ModelPending[] = [];
  transferCount = 0;

  clone(): Model {
    const copy = new Model();
    for (const [code, a] of this.accounts) copy.accounts.set(code, { ...a });
    copy.pendings = this.pendings.map((p) => ({ ...p }));
    copy.transferCount = this.transferCount;
    return copy;
  }

  account(code: string): ModelAccount {
    const found = this.accounts.get(code);
    if (!found) throw new Error(`model has no account ${code}`);
    return found;
  }

  /** What a user or fees account may still spend (0 for an account that does not exist yet). */
  spendable(key: LedgerAccountKey): bigint {
    const a = this.accounts.get(specOf(key).code);
    return a ? a.balance - a.pendingDebits : 0n;
  }

  private touch(key: LedgerAccountKey): string {
    const spec = specOf(key);
    if (!this.accounts.has(spec.code)) {
      this.accounts.set(spec.code, { balance: 0n, pendingDebits: 0n, pendingCredits: 0n, allowNegative: spec.allowNegative });
    }
    return spec.code;
  }

  /**
   * Applies an operation as the design says it must behave and reports whether it is allowed:
   * every transfer is applied, then no account that may not go negative may end with
   * balance - pending debits below zero. The caller keeps the copy only when it is allowed.
   */
  apply(transfers: readonly ModelTransfer[]): { allowed: boolean } {
    const touched = new Set<string>();
    for (const t of transfers) {
      if ('pending' in t) {
        const p = t.pending;
        if (p.resolved) throw new Error('model: resolution of a resolved pending transfer');
        p.resolved = true;
        const debit = this.account(p.debit);
        const credit = this.account(p.credit);
        debit.pendingDebits -= p.amount;
        credit.pendingCredits -= p.amount;
        if (t.type === 'post_pending') {
          debit.balance -= p.amount;
          credit.balance += p.amount;
        }
        touched.add(p.debit).add(p.credit);
      } else {
        const debitCode = this.touch(t.debit);
        const creditCode = this.touch(t.credit);
        const debit = this.account(debitCode);
        const credit = this.account(creditCode);
        if (t.type === 'posted') {
          debit.balance -= t.amountMinor;
          credit.balance += t.amountMinor;
        } else {
          debit.pendingDebits += t.amountMinor;
          credit.pendingCredits += t.amountMinor;
          this.pendings.push({ id: -1n, debit: debitCode, credit: creditCode, amount: t.amountMinor, resolved: false });
        }
        touched.add(debitCode).add(creditCode);
      }
      this.transferCount++;
    }
    const allowed = [...touched].every((code) => {
      const a = this.account(code);
      return a.allowNegative || a.balance - a.pendingDebits >= 0n;
    });
    return { allowed };
  }
}

type ModelTransfer =
  | { type: 'posted' | 'pending'; debit: LedgerAccountKey; credit: LedgerAccountKey; amountMinor: bigint }
  | { type: 'post_pending' | 'void_pending'; pending: ModelPending };

// ---------------------------------------------------------------------------------------------
// Generated steps. Amounts are chosen when a step runs, as a share (per mille) of what the payer
// can spend at that moment: shares above 1000 overdraw, so a good part of the steps must fail.

type Party = number; // index into `users`
const share = fc.integer({ min: 1, max: 1300 });
const asset = fc.constantFrom(...ASSETS);
const party = fc.integer({ min: 0, max: USER_COUNT - 1 });
const twoParties = fc.tuple(party, fc.integer({ min: 1, max: USER_COUNT - 1 })).map(([a, d]) => [a, (a + d) % USER_COUNT] as const);

type Step =
  | { kind: 'fund'; to: Party; asset: Asset; amount: bigint }
  | { kind: 'transfer'; from: Party; to: Party; asset: Asset; share: number }
  | { kind: 'payFee'; from: Party; asset: Asset; share: number }
  | { kind: 'transferWithFee'; from: Party; to: Party; asset: Asset; share: number; feeShare: number }
  | { kind: 'refundFromFees'; to: Party; asset: Asset; share: number }
  | { kind: 'pending'; from: Party | 'clearing'; to: Party; asset: Asset; share: number }
  | { kind: 'resolve'; pick: number; action: 'post' | 'void' };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('fund' as const), to: party, asset, amount: fc.bigInt({ min: 1n, max: 5_000_000n }) }),
  },
  {
    weight: 4,
    arbitrary: fc
      .record({ kind: fc.constant('transfer' as const), parties: twoParties, asset, share })
      .map(({ parties: [from, to], ...s }) => ({ ...s, from, to })),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('payFee' as const), from: party, asset, share }) },
  {
    weight: 2,
    arbitrary: fc
      .record({
        kind: fc.constant('transferWithFee' as const),
        parties: twoParties,
        asset,
        share,
        feeShare: fc.integer({ min: 1, max: 300 }),
      })
      .map(({ parties: [from, to], ...s }) => ({ ...s, from, to })),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('refundFromFees' as const), to: party, asset, share }) },
  {
    weight: 3,
    arbitrary: fc
      .record({ kind: fc.constant('pending' as const), parties: twoParties, fromClearing: fc.boolean(), asset, share })
      .map(({ parties: [from, to], fromClearing, ...s }) => ({ ...s, from: fromClearing ? ('clearing' as const) : from, to })),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('resolve' as const),
      pick: fc.nat(),
      action: fc.constantFrom('post' as const, 'void' as const),
    }),
  },
);

/** An amount that is `share` per mille of what the payer can spend (at least 1). */
function amountFor(spendable: bigint, perMille: number): bigint {
  const amount = (spendable * BigInt(perMille)) / 1000n;
  return amount > 0n ? amount : BigInt(perMille);
}

/**
 * Turns a step into ledger transfers and the same transfers for the model, against the model's
 * current state. Returns null for a resolution when no pending transfer exists yet.
 */
function build(model: Model, s: Step): { inputs: TransferInput[]; model: ModelTransfer[] } | null {
  const user = (p: Party, a: Asset) => userAvailable(users[p]!, a);
  const posted = (debit: LedgerAccountKey, credit: LedgerAccountKey, amountMinor: bigint, code: string) => ({
    inputs: [{ type: 'posted' as const, debit, credit, amountMinor, code }],
    model: [{ type: 'posted' as const, debit, credit, amountMinor }],
  });
  switch (s.kind) {
    case 'fund':
      return posted(platformAccount('processor_clearing', s.asset), user(s.to, s.asset), s.amount, 'test_fund');
    case 'transfer':
      return posted(
        user(s.from, s.asset),
        user(s.to, s.asset),
        amountFor(model.spendable(user(s.from, s.asset)), s.share),
        'test_transfer',
      );
    case 'payFee':
      return posted(
        user(s.from, s.asset),
        platformAccount('fees', s.asset),
        amountFor(model.spendable(user(s.from, s.asset)), s.share),
        'test_fee',
      );
    case 'refundFromFees':
      return posted(
        platformAccount('fees', s.asset),
        user(s.to, s.asset),
        amountFor(model.spendable(platformAccount('fees', s.asset)), s.share),
        'test_refund',
      );
    case 'transferWithFee': {
      // A fiat-style operation: the amount to the recipient and a fee to the platform, atomically.
      const from = user(s.from, s.asset);
      const amount = amountFor(model.spendable(from), s.share);
      const fee = (amount * BigInt(s.feeShare)) / 1000n + 1n;
      const fees = platformAccount('fees', s.asset);
      return {
        inputs: [
          { type: 'posted', debit: from, credit: user(s.to, s.asset), amountMinor: amount, code: 'test_transfer' },
          { type: 'posted', debit: from, credit: fees, amountMinor: fee, code: 'test_fee' },
        ],
        model: [
          { type: 'posted', debit: from, credit: user(s.to, s.asset), amountMinor: amount },
          { type: 'posted', debit: from, credit: fees, amountMinor: fee },
        ],
      };
    }
    case 'pending': {
      const debit = s.from === 'clearing' ? platformAccount('processor_clearing', s.asset) : user(s.from, s.asset);
      const amount = s.from === 'clearing' ? BigInt(s.share) * 1000n : amountFor(model.spendable(debit), s.share);
      return {
        inputs: [{ type: 'pending', debit, credit: user(s.to, s.asset), amountMinor: amount, code: 'test_pending' }],
        model: [{ type: 'pending', debit, credit: user(s.to, s.asset), amountMinor: amount }],
      };
    }
    case 'resolve': {
      if (model.pendings.length === 0) return null;
      const pending = model.pendings[s.pick % model.pendings.length]!;
      const type = s.action === 'post' ? ('post_pending' as const) : ('void_pending' as const);
      return { inputs: [{ type, pendingTransferId: pending.id, code: `test_${s.action}` }], model: [{ type, pending }] };
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Checks.

function modelRows(model: Model): AccountRow[] {
  return [...model.accounts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([code, a]) => ({
      code,
      balance: a.balance,
      pending_debits: a.pendingDebits,
      pending_credits: a.pendingCredits,
      allow_negative: a.allowNegative,
    }));
}

async function expectLedgerMatches(model: Model, context: string): Promise<LedgerSnapshot> {
  const snapshot = await snapshotLedger(database.db);
  expect(await checkLedgerInvariants(database.db), context).toEqual([]);
  for (const row of snapshot.accounts) {
    if (!row.allow_negative) expect(row.balance - row.pending_debits, `${context}: ${row.code} below zero`).toBeGreaterThanOrEqual(0n);
  }
  // Independently of the queries module: per asset the balances sum to zero and pending is balanced.
  const sums = new Map<string, { balance: bigint; pending: bigint }>();
  for (const row of snapshot.accounts) {
    const assetOf = row.code.split(':').at(-1)!;
    const sum = sums.get(assetOf) ?? { balance: 0n, pending: 0n };
    sum.balance += row.balance;
    sum.pending += row.pending_debits - row.pending_credits;
    sums.set(assetOf, sum);
  }
  for (const [a, sum] of sums) expect(sum, `${context}: ${a} sums`).toEqual({ balance: 0n, pending: 0n });
  expect(snapshot.accounts, context).toEqual(modelRows(model));
  expect(snapshot.transferCount, context).toBe(model.transferCount);
  return snapshot;
}

function expectApplied(applied: AppliedTransfer[], expected: ModelTransfer[], context: string): void {
  expect(
    applied.map((t) => t.kind),
    context,
  ).toEqual(expected.map((t) => t.type));
  for (const [i, t] of applied.entries()) {
    expect(t.id > 0n, context).toBe(true);
    if (t.kind === 'post_pending' || t.kind === 'void_pending') {
      const m = expected[i] as Extract<ModelTransfer, { pending: ModelPending }>;
      expect(t.pendingTransferId, context).toBe(m.pending.id);
      expect(t.amountMinor, context).toBe(m.pending.amount);
    } else {
      expect(t.pendingTransferId, context).toBeNull();
      expect(t.amountMinor, context).toBe((expected[i] as { amountMinor: bigint }).amountMinor);
    }
  }
}

/** Gives the model's new pending transfers the ids the database assigned. */
function recordPendingIds(model: Model, applied: AppliedTransfer[]): void {
  const fresh = model.pendings.filter((p) => p.id === -1n);
  const ids = applied.filter((t) => t.kind === 'pending').map((t) => t.id);
  expect(ids.length).toBe(fresh.length);
  fresh.forEach((p, i) => (p.id = ids[i]!));
}

/** What the runs exercised, so that the test can insist on a useful mix. */
const stats = { applied: 0, refused: 0, resolvedTwice: 0, resolutions: 0 };

let operationCounter = 0;
const operation = (inputs: TransferInput[]): Operation => ({ operationId: `op-${++operationCounter}`, transfers: inputs });

// ---------------------------------------------------------------------------------------------
// Running a step against the database and the model.

async function runStep(model: Model, s: Step, context: string): Promise<Model> {
  const before = await snapshotLedger(database.db);
  const next = model.clone();
  const built = build(next, s);
  if (!built) return model;
  const alreadyResolved = built.model.some((t) => 'pending' in t && t.pending.resolved);
  if (alreadyResolved) {
    // A second resolution throws, and changes nothing.
    await expect(commitOperation(database.db, operation(built.inputs)), context).rejects.toThrow(/resolved once/);
    expect(await snapshotLedger(database.db), context).toEqual(before);
    stats.resolvedTwice++;
    return model;
  }
  const { allowed } = next.apply(built.model);
  if (!allowed) {
    const error = await commitOperation(database.db, operation(built.inputs)).then(
      () => new Error(`${context}: expected insufficient_balance, the operation was applied`),
      (e: unknown) => e,
    );
    expectInsufficientBalance(error);
    expect(await snapshotLedger(database.db), `${context}: a refused operation changed the ledger`).toEqual(before);
    stats.refused++;
    return model;
  }
  const applied = await commitOperation(database.db, operation(built.inputs));
  expectApplied(applied, built.model, context);
  recordPendingIds(next, applied);
  stats.applied++;
  if (s.kind === 'resolve') stats.resolutions++;
  return next;
}

// ---------------------------------------------------------------------------------------------

describe('ledger under random operations', () => {
  it('keeps every invariant and matches the model after every step', { timeout: 480_000 }, async () => {
    const minimums = { applied: 100, refused: 30, resolutions: 5, resolvedTwice: 2 };
    const covered = () => Object.entries(minimums).every(([name, least]) => stats[name as keyof typeof stats] > least);
    const round = () =>
      fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25, size: 'max' }), async (steps) => {
          await resetLedger(database.db);
          let model = new Model();
          for (const [i, s] of steps.entries()) {
            const context = `step ${i} ${JSON.stringify(s, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}`;
            model = await runStep(model, s, context);
            await expectLedgerMatches(model, context);
          }
        }),
        { numRuns: 80 },
      );
    await runUntilCovered(round, covered);
    // The generator must exercise every path, not only the easy ones.
    for (const [name, least] of Object.entries(minimums)) expect(stats[name as keyof typeof stats], name).toBeGreaterThan(least);
  });
});

describe('ledger examples', () => {
  it('posts a pending transfer once: a second post or a void afterwards throws and changes nothing', async () => {
    await resetLedger(database.db);
    const [a, b] = [users[0]!, users[1]!];
    await commitOperation(
      database.db,
      operation([
        {
          type: 'posted',
          debit: platformAccount('processor_clearing', 'USD'),
          credit: userAvailable(a, 'USD'),
          amountMinor: 1000n,
          code: 'fund',
        },
      ]),
    );
    const [pending] = await commitOperation(
      database.db,
      operation([{ type: 'pending', debit: userAvailable(a, 'USD'), credit: userAvailable(b, 'USD'), amountMinor: 400n, code: 'p' }]),
    );
    // The pending debit is held: only 600 can still be spent.
    await expect(
      commitOperation(
        database.db,
        operation([{ type: 'posted', debit: userAvailable(a, 'USD'), credit: userAvailable(b, 'USD'), amountMinor: 601n, code: 't' }]),
      ),
    ).rejects.toMatchObject({ code: 'insufficient_balance' });
    const [posted] = await commitOperation(
      database.db,
      operation([{ type: 'post_pending', pendingTransferId: pending!.id, code: 'post' }]),
    );
    expect(posted).toMatchObject({ kind: 'post_pending', pendingTransferId: pending!.id, amountMinor: 400n });
    const before = await snapshotLedger(database.db);
    await expect(
      commitOperation(database.db, operation([{ type: 'post_pending', pendingTransferId: pending!.id, code: 'post' }])),
    ).rejects.toThrow(/resolved once/);
    await expect(
      commitOperation(database.db, operation([{ type: 'void_pending', pendingTransferId: pending!.id, code: 'void' }])),
    ).rejects.toThrow(/resolved once/);
    // Only a pending transfer can be resolved at all.
    await expect(
      commitOperation(database.db, operation([{ type: 'void_pending', pendingTransferId: posted!.id, code: 'void' }])),
    ).rejects.toThrow(/only a pending transfer/);
    expect(await snapshotLedger(database.db)).toEqual(before);
    const balances = Object.fromEntries(before.accounts.map((r) => [r.code, [r.balance, r.pending_debits, r.pending_credits]]));
    expect(balances).toEqual({
      'platform:processor_clearing:USD': [-1000n, 0n, 0n],
      [`user:${a}:available:USD`]: [600n, 0n, 0n],
      [`user:${b}:available:USD`]: [400n, 0n, 0n],
    });
  });

  it('voids a pending transfer once: the hold is released and nothing moves', async () => {
    await resetLedger(database.db);
    const [a, b] = [users[0]!, users[1]!];
    await commitOperation(
      database.db,
      operation([
        {
          type: 'posted',
          debit: platformAccount('processor_clearing', 'JPY'),
          credit: userAvailable(a, 'JPY'),
          amountMinor: 1000n,
          code: 'fund',
        },
      ]),
    );
    const [pending] = await commitOperation(
      database.db,
      operation([{ type: 'pending', debit: userAvailable(a, 'JPY'), credit: userAvailable(b, 'JPY'), amountMinor: 1000n, code: 'p' }]),
    );
    await expect(
      commitOperation(
        database.db,
        operation([
          { type: 'posted', debit: userAvailable(a, 'JPY'), credit: platformAccount('fees', 'JPY'), amountMinor: 1n, code: 'fee' },
        ]),
      ),
    ).rejects.toMatchObject({ code: 'insufficient_balance' });
    await commitOperation(database.db, operation([{ type: 'void_pending', pendingTransferId: pending!.id, code: 'void' }]));
    const before = await snapshotLedger(database.db);
    await expect(
      commitOperation(database.db, operation([{ type: 'post_pending', pendingTransferId: pending!.id, code: 'post' }])),
    ).rejects.toThrow(/resolved once/);
    expect(await snapshotLedger(database.db)).toEqual(before);
    const balances = Object.fromEntries(before.accounts.map((r) => [r.code, [r.balance, r.pending_debits, r.pending_credits]]));
    expect(balances).toEqual({
      'platform:processor_clearing:JPY': [-1000n, 0n, 0n],
      [`user:${a}:available:JPY`]: [1000n, 0n, 0n],
      [`user:${b}:available:JPY`]: [0n, 0n, 0n],
    });
    expect(await checkLedgerInvariants(database.db)).toEqual([]);
  });

  it('checkLedgerInvariants reports a ledger that does not add up', async () => {
    await resetLedger(database.db);
    await commitOperation(
      database.db,
      operation([
        {
          type: 'posted',
          debit: platformAccount('processor_clearing', 'USD'),
          credit: userAvailable(users[0]!, 'USD'),
          amountMinor: 500n,
          code: 'fund',
        },
      ]),
    );
    expect(await checkLedgerInvariants(database.db)).toEqual([]);
    // Tamper with one balance behind the ledger's back: the sum is off and the account drifts from its transfers.
    await database.db
      .updateTable('ledger_accounts')
      .set((eb) => ({ balance: eb('balance', '+', 1n) }))
      .where('code', '=', `user:${users[0]!}:available:USD`)
      .execute();
    const violations = (await checkLedgerInvariants(database.db)).map((v) => v.invariant).sort();
    expect(violations).toEqual(['balance_matches_transfers', 'sum_zero']);
    await resetLedger(database.db);
  });
});
