// Model-based property test of card risk (DESIGN §16) over random sequences of card receipts
// (held or not), hold releases, refunds (reported twice, failed later), disputes (opened, won or
// lost, events repeated and reordered: a close before its open), payouts and write-offs, on
// whichever database the test helper opens. After every step: the ledger's invariants (each
// asset sums to zero, no user account below zero), every user's held, available and owed equal
// an independent model, each refund and dispute booked once, and owed only while nothing is held
// or available (receipts repay it first).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Database } from '../../src/db/database.js';
import { applyOperation } from '../../src/ledger/ledger.js';
import { platformAccount, userAvailable } from '../../src/ledger/ledger-accounts.js';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { creditTransfer } from '../../src/fiat/fiat-ledger.js';
import { applyProcessorEvent } from '../../src/fiat/processor-events.js';
import { createHoldRelease } from '../../src/fiat/card-risk/hold-release.js';
import { createDebtWriteOffs } from '../../src/fiat/card-risk/debt-write-offs.js';
import { mayBePaidOut } from '../../src/fiat/card-risk/sender-standing.js';
import { userMoney } from '../../src/fiat/card-risk/user-money.js';
import type { FiatTransfer } from '../../src/fiat/fiat-transfer.js';
import type { Config } from '../../src/config.js';
import { openTestDatabase } from '../helpers/test-database.js';
import { createUsers } from './ledger-helpers.js';

let database: Database;
let runNo = 0;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

type Step =
  | { kind: 'receive'; user: number; amount: number; held: boolean }
  | { kind: 'release' }
  | { kind: 'refund'; transfer: number; amount: number; twice: boolean }
  | { kind: 'refund_fail'; refund: number }
  | { kind: 'dispute'; transfer: number; outcome: 'open' | 'won' | 'lost' | 'won_first' | 'lost_first' }
  | { kind: 'close'; dispute: number; outcome: 'won' | 'lost'; twice: boolean }
  | { kind: 'payout'; user: number }
  | { kind: 'write_off'; user: number };

const USERS = 2;
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('receive' as const),
      user: fc.nat(USERS - 1),
      amount: fc.integer({ min: 1, max: 5000 }),
      held: fc.boolean(),
    }),
    weight: 4,
  },
  { arbitrary: fc.record({ kind: fc.constant('release' as const) }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('refund' as const),
      transfer: fc.nat(20),
      amount: fc.integer({ min: 1, max: 6000 }),
      twice: fc.boolean(),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('refund_fail' as const), refund: fc.nat(20) }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('dispute' as const),
      transfer: fc.nat(20),
      outcome: fc.constantFrom('open' as const, 'won' as const, 'lost' as const, 'won_first' as const, 'lost_first' as const),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('close' as const),
      dispute: fc.nat(20),
      outcome: fc.constantFrom('won' as const, 'lost' as const),
      twice: fc.boolean(),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('payout' as const), user: fc.nat(USERS - 1) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('write_off' as const), user: fc.nat(USERS - 1) }), weight: 1 },
);

// ---------------------------------------------------------------------------------------------
// The model.

interface Money {
  held: bigint;
  available: bigint;
  owed: bigint;
}
interface ModelTransfer {
  id: string;
  charge: string;
  user: number;
  amount: bigint;
  fee: bigint;
}
interface ModelRefund {
  ref: string;
  transfer: ModelTransfer;
  amount: bigint;
  fee: bigint;
  failed: boolean;
}
interface ModelDispute {
  ref: string;
  transfer: ModelTransfer;
  taken: bigint;
  fee: bigint;
  status: 'open' | 'won' | 'lost';
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);

class Model {
  money: Money[] = [...Array(USERS).keys()].map(() => ({ held: 0n, available: 0n, owed: 0n }));
  transfers: ModelTransfer[] = [];
  refunds: ModelRefund[] = [];
  disputes: ModelDispute[] = [];

  receive(user: number, amount: bigint, held: boolean) {
    const m = this.money[user]!;
    const repaid = min(m.owed, amount);
    m.owed -= repaid;
    if (held) m.held += amount - repaid;
    else m.available += amount - repaid;
  }
  takeBack(user: number, amount: bigint) {
    const m = this.money[user]!;
    const fromHeld = min(m.held, amount);
    const fromAvailable = min(m.available, amount - fromHeld);
    m.held -= fromHeld;
    m.available -= fromAvailable;
    m.owed += amount - fromHeld - fromAvailable;
  }
  refundable(t: ModelTransfer) {
    let amount = t.amount;
    let fee = t.fee;
    for (const r of this.refunds.filter((r) => r.transfer === t && !r.failed)) [amount, fee] = [amount - r.amount, fee - r.fee];
    for (const d of this.disputes.filter((d) => d.transfer === t && d.status !== 'won')) [amount, fee] = [amount - d.taken, fee - d.fee];
    return { amount, fee };
  }
  /** What the processor took is booked whole: the recipient's part first, then the fee, and what does not fit is the recipient's. */
  split(t: ModelTransfer, charge: bigint) {
    const left = this.refundable(t);
    const atLeastZero = (a: bigint) => (a > 0n ? a : 0n);
    const fee = min(charge - min(charge, atLeastZero(left.amount)), atLeastZero(left.fee));
    return { amount: charge - fee, fee };
  }
}

// ---------------------------------------------------------------------------------------------
// The system under test.

const farFuture = () => new Date(Date.now() + 365 * 24 * 3600 * 1000);
const clock = { now: () => new Date() };
const deps = () => ({ db: database.db, clock, config: { fiatHoldMs: 0 } as unknown as Config });

async function newTransfer(
  run: number,
  senders: number[],
  users: number[],
  user: number,
  amount: bigint,
  seq: number,
): Promise<FiatTransfer> {
  const id = `tr_prop_${run}_${seq}`;
  const transfer: FiatTransfer = {
    id,
    senderAccountId: senders[0]!,
    recipientAccountId: users[user]!,
    currency: 'USD',
    amountMinor: amount,
    feeMinor: (amount * 25n) / 1000n,
    paymentMethod: 'instant',
    status: 'completed',
    note: null,
    instrumentRef: 'card_prop',
    processorRef: `ch_prop_${run}_${seq}`,
    failureCode: null,
    idempotencyKey: null,
    createdAt: new Date(),
    settlesAt: null,
    completedAt: new Date(),
  };
  await database.db
    .insertInto('fiat_transfers')
    .values({
      id,
      sender_account_id: transfer.senderAccountId,
      recipient_account_id: transfer.recipientAccountId,
      currency: 'USD',
      amount,
      fee: transfer.feeMinor,
      payment_method: 'instant',
      status: 'completed',
      instrument_ref: 'card_prop',
      processor_ref: transfer.processorRef,
      created_at: transfer.createdAt,
      completed_at: transfer.completedAt,
    })
    .execute();
  return transfer;
}

async function disputeEvent(eventId: string, d: { ref: string; transfer: ModelTransfer }, status: 'open' | 'won' | 'lost', charge: bigint) {
  const type = status === 'open' ? 'charge.dispute.created' : 'charge.dispute.closed';
  return applyProcessorEvent(deps(), {
    eventId,
    type,
    kind: 'dispute_changed',
    dispute: {
      disputeRef: d.ref,
      chargeRef: d.transfer.charge,
      currency: 'USD',
      amountMinor: charge,
      reason: 'fraudulent',
      status,
      feeMinor: 1500n,
    },
  });
}

async function runSteps(steps: Step[]): Promise<void> {
  const run = ++runNo;
  const users = await createUsers(database.db, USERS);
  const senders = await createUsers(database.db, 1);
  const model = new Model();
  let seq = 0;
  for (const s of steps) {
    seq++;
    switch (s.kind) {
      case 'receive': {
        const amount = BigInt(s.amount);
        const transfer = await newTransfer(run, senders, users, s.user, amount, seq);
        const hold = s.held ? { releaseAt: farFuture(), now: new Date() } : undefined;
        await database.db.transaction().execute((trx) => creditTransfer(trx, transfer, 'posted', hold));
        model.receive(s.user, amount, s.held);
        model.transfers.push({ id: transfer.id, charge: transfer.processorRef!, user: s.user, amount, fee: transfer.feeMinor });
        break;
      }
      case 'release': {
        await createHoldRelease({ db: database.db, clock: { now: farFuture } }).releaseDue(10_000);
        for (const m of model.money) {
          const repaid = min(m.owed, m.held);
          m.available += m.held - repaid;
          m.owed -= repaid;
          m.held = 0n;
        }
        break;
      }
      case 'refund': {
        const t = model.transfers[s.transfer % Math.max(1, model.transfers.length)];
        if (!t) break;
        const charge = min(BigInt(s.amount), model.refundable(t).amount + model.refundable(t).fee);
        if (charge <= 0n) break;
        const ref = `re_prop_${run}_${seq}`;
        const refund = {
          refundRef: ref,
          chargeRef: t.charge,
          currency: 'USD' as const,
          amountMinor: charge,
          status: 'succeeded' as const,
          refundId: null,
        };
        for (const eventId of s.twice ? [`evt_${ref}`, `evt_${ref}`, `evt_${ref}_again`] : [`evt_${ref}`]) {
          await applyProcessorEvent(deps(), {
            eventId,
            type: 'charge.refunded',
            kind: 'refunds_changed',
            chargeRef: t.charge,
            refunds: [refund],
          });
        }
        const split = model.split(t, charge);
        model.takeBack(t.user, split.amount);
        model.refunds.push({ ref, transfer: t, ...split, failed: false });
        break;
      }
      case 'refund_fail': {
        const r = model.refunds[s.refund % Math.max(1, model.refunds.length)];
        if (!r) break;
        const failed = {
          refundRef: r.ref,
          chargeRef: r.transfer.charge,
          currency: 'USD' as const,
          amountMinor: r.amount + r.fee,
          status: 'failed' as const,
          refundId: null,
        };
        await applyProcessorEvent(deps(), {
          eventId: `evt_fail_${r.ref}_${seq}`,
          type: 'refund.failed',
          kind: 'refunds_changed',
          chargeRef: r.transfer.charge,
          refunds: [failed],
        });
        if (!r.failed) {
          r.failed = true;
          model.receive(r.transfer.user, r.amount, false);
        }
        break;
      }
      case 'dispute': {
        const t = model.transfers[s.transfer % Math.max(1, model.transfers.length)];
        if (!t || model.disputes.some((d) => d.transfer === t && d.status === 'open')) break;
        const ref = `du_prop_${run}_${seq}`;
        const charge = t.amount + t.fee;
        const split = model.split(t, charge);
        const d: ModelDispute = { ref, transfer: t, taken: split.amount, fee: split.fee, status: 'open' };
        const closeFirst = s.outcome === 'won_first' || s.outcome === 'lost_first';
        const outcome = s.outcome === 'won_first' ? 'won' : s.outcome === 'lost_first' ? 'lost' : s.outcome;
        if (closeFirst) await disputeEvent(`evt_${ref}_closed`, d, outcome, charge);
        await disputeEvent(`evt_${ref}_created`, d, 'open', charge);
        if (!closeFirst && outcome !== 'open') await disputeEvent(`evt_${ref}_closed`, d, outcome, charge);
        model.takeBack(t.user, d.taken);
        model.disputes.push(d);
        if (outcome !== 'open') {
          d.status = outcome;
          if (outcome === 'won') model.receive(t.user, d.taken, false);
        }
        break;
      }
      case 'close': {
        const d = model.disputes[s.dispute % Math.max(1, model.disputes.length)];
        if (!d) break;
        for (const n of s.twice ? [1, 2] : [1])
          await disputeEvent(`evt_${d.ref}_close_${seq}_${n}`, d, s.outcome, d.transfer.amount + d.transfer.fee);
        if (d.status === 'open') {
          d.status = s.outcome;
          if (s.outcome === 'won') model.receive(d.transfer.user, d.taken, false);
        }
        break;
      }
      case 'payout': {
        const m = model.money[s.user]!;
        const accountId = users[s.user]!;
        await database.db.transaction().execute(async (trx) => {
          const { availableMinor } = await userMoney(trx, accountId, 'USD');
          if (availableMinor === 0n || !(await mayBePaidOut(trx, accountId, 'USD'))) return;
          await applyOperation(trx, {
            operationId: `payout:prop:${run}:${seq}`,
            transfers: [
              {
                type: 'posted',
                debit: userAvailable(accountId, 'USD'),
                credit: platformAccount('processor_clearing', 'USD'),
                amountMinor: availableMinor,
                code: 'fiat_payout',
              },
            ],
          });
        });
        if (m.owed === 0n) m.available = 0n;
        break;
      }
      case 'write_off': {
        const m = model.money[s.user]!;
        const writeOffs = createDebtWriteOffs({ db: database.db, clock });
        await writeOffs
          .writeOff({ accountId: users[s.user]!, currency: 'USD', note: 'property' }, { operator: 'env', requestId: null })
          .catch((error: { code?: string }) => {
            if (error.code !== 'invalid_request') throw error;
          });
        m.owed = 0n;
        break;
      }
    }
    await expectMatches(model, users, s);
  }
  const booked = await database.db
    .selectFrom('refunds')
    .select('processor_ref')
    .where('processor_ref', 'like', `re_prop_${run}_%`)
    .execute();
  expect(booked).toHaveLength(model.refunds.length);
  const disputes = await database.db.selectFrom('disputes').select('status').where('processor_ref', 'like', `du_prop_${run}_%`).execute();
  expect(disputes.map((d) => d.status).sort()).toEqual(model.disputes.map((d) => d.status).sort());
}

async function expectMatches(model: Model, users: number[], after: Step): Promise<void> {
  expect(await checkLedgerInvariants(database.db), JSON.stringify(after)).toEqual([]);
  for (let i = 0; i < USERS; i++) {
    const actual = await userMoney(database.db, users[i]!, 'USD');
    const expected = model.money[i]!;
    expect({ held: actual.heldMinor, available: actual.availableMinor, owed: actual.owedMinor }, JSON.stringify(after)).toEqual(expected);
    // Owed is repaid first: never owed while anything is held or available.
    if (actual.owedMinor > 0n) expect(actual.heldMinor + actual.availableMinor).toBe(0n);
  }
}

describe('card risk: holds, refunds, disputes, payouts and write-offs against a model', () => {
  it('keeps every invariant and the model over random sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 25 }), (steps) => runSteps(steps)),
      { numRuns: 25 },
    );
  }, 600_000);
});
