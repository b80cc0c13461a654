// Model-based property test of card credits in a group commit (src/fiat/card-credit-batch.ts), on
// whichever database the test helper opens: rounds of concurrent credits, some of them the same
// transfer twice (a replay racing its first request), some of a transfer already answered (a replay
// after it), some crashing their batch, between take-backs that leave a recipient owing. After
// every round: the ledger's invariants hold (each asset sums to zero, no user account below zero);
// every user's held, available and owed equal the model (exactly whenever the round's order cannot
// matter, within the model's bounds otherwise); each answered transfer is completed and moved
// amount + fee exactly once, each unanswered one moved nothing; a crashing member fails alone;
// holds add up to what is held; each credited transfer has its four events; a member carrying the
// sandbox processor's unwritten charge has it written once, with its credit, and a crashing one not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { createGroupCommit, type GroupCommit } from '../../src/ledger/group-commit.js';
import { platformAccount } from '../../src/ledger/ledger-accounts.js';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { writeCardCredits } from '../../src/fiat/card-credit-batch.js';
import { prepareCardCredits } from '../../src/fiat/card-credit-locks.js';
import { cardCreditMember, type CardCreditMember } from '../../src/fiat/card-credit-member.js';
import { takeBack } from '../../src/fiat/card-risk/take-back.js';
import { userMoney } from '../../src/fiat/card-risk/user-money.js';
import { creditOperationId, type FiatTransfer } from '../../src/fiat/fiat-transfer.js';
import { SandboxProcessor } from '../../src/adapters/processor/sandbox-processor.js';
import { systemClock } from '../../src/platform/clock.js';
import { openTestDatabase } from '../helpers/test-database.js';
import { createUsers } from './ledger-helpers.js';

const USERS = 3;
let database: Database;
let credits: GroupCommit<CardCreditMember, FiatTransfer | null>;
let sandbox: SandboxProcessor;
const crashing = new Set<string>();
class Crash extends Error {}
let runNo = 0;

beforeAll(async () => {
  database = await openTestDatabase();
  sandbox = new SandboxProcessor({ db: database.db, clock: systemClock });
  // The card the members' sandbox charges name.
  await sql`insert into sandbox_instruments (ref, customer_ref, kind, behaviour) values ('card_cprop', 'cus_cprop', 'card', 'succeed')`.execute(
    database.db,
  );
  // Small batches and two at once (PGlite: one), so that a round spans batches that run side by side.
  credits = createGroupCommit(
    database.db,
    async (trx, batch, members, charged) => {
      const written = await writeCardCredits(trx, batch, members, charged);
      if (members.some((m) => crashing.has(m.transfer.id))) throw new Crash('crashed after staging');
      return written;
    },
    { maxBatch: 4, maxWaitMs: 3, concurrency: database.kind === 'pglite' ? 1 : 2, maxQueued: 1000 },
    prepareCardCredits,
  );
});
afterAll(async () => {
  await database?.close();
});

type Member = { user: number; amount: number; held: boolean; charge: boolean; kind: 'new' | 'twice' | 'replay' | 'crash' };
type Step = { kind: 'round'; members: Member[] } | { kind: 'owe'; user: number; amount: number };

const member: fc.Arbitrary<Member> = fc.record({
  user: fc.nat(USERS - 1),
  amount: fc.integer({ min: 1, max: 5000 }),
  held: fc.boolean(),
  charge: fc.boolean(),
  kind: fc.constantFrom('new' as const, 'new' as const, 'new' as const, 'twice' as const, 'replay' as const, 'crash' as const),
});
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('round' as const), members: fc.array(member, { minLength: 1, maxLength: 9 }) }), weight: 3 },
  {
    arbitrary: fc.record({ kind: fc.constant('owe' as const), user: fc.nat(USERS - 1), amount: fc.integer({ min: 1, max: 8000 }) }),
    weight: 1,
  },
);

interface Money {
  held: bigint;
  available: bigint;
  owed: bigint;
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
const farFuture = () => new Date(Date.now() + 365 * 24 * 3600 * 1000);

async function newTransfer(run: number, seq: number, sender: number, recipient: number, amount: bigint): Promise<FiatTransfer> {
  const now = new Date();
  const transfer: FiatTransfer = {
    id: `tr_cprop_${run}_${seq}`,
    senderAccountId: sender,
    recipientAccountId: recipient,
    currency: 'USD',
    amountMinor: amount,
    feeMinor: (amount * 25n) / 1000n,
    paymentMethod: 'instant',
    status: 'processing',
    note: null,
    instrumentRef: 'card_cprop',
    processorRef: null,
    failureCode: null,
    idempotencyKey: null,
    createdAt: now,
    settlesAt: null,
    completedAt: null,
  };
  await database.db
    .insertInto('fiat_transfers')
    .values({
      id: transfer.id,
      sender_account_id: sender,
      recipient_account_id: recipient,
      currency: 'USD',
      amount,
      fee: transfer.feeMinor,
      payment_method: 'instant',
      status: 'processing',
      instrument_ref: 'card_cprop',
      created_at: now,
    })
    .execute();
  return transfer;
}

/** What a transfer's credit operation moved, in total (0 when nothing). */
async function moved(transferId: string): Promise<bigint> {
  const row = await sql<{ total: string | null }>`
    select sum(amount)::text as total from ledger_transfers where operation_id = ${creditOperationId(transferId)}`.execute(database.db);
  return BigInt(row.rows[0]?.total ?? '0');
}

interface Planned {
  member: Member;
  transfer: FiatTransfer;
  /** The transfer's first member in this round (a `twice` member's pair shares the transfer). */
  first: boolean;
}

async function runRound(run: number, seq: () => number, sender: number, users: number[], answered: FiatTransfer[], members: Member[]) {
  const planned: Planned[] = [];
  for (const m of members) {
    const earlier = answered[m.amount % Math.max(1, answered.length)];
    if (m.kind === 'replay' && earlier) {
      planned.push({ member: m, transfer: { ...earlier, status: 'processing' }, first: false });
      continue;
    }
    const transfer = await newTransfer(run, seq(), sender, users[m.user]!, BigInt(m.amount));
    if (m.kind === 'crash') crashing.add(transfer.id);
    planned.push({ member: { ...m, kind: m.kind === 'replay' ? 'new' : m.kind }, transfer, first: true });
    if (m.kind === 'twice') planned.push({ member: m, transfer, first: false });
  }
  const now = new Date();
  const outcomes = await Promise.allSettled(
    planned.map((p) =>
      credits.run(
        cardCreditMember(p.transfer, {
          chargeRef: `ch_${p.transfer.id}`,
          now,
          hold: p.member.held ? { releaseAt: farFuture(), now } : undefined,
          handles: { sender: 'PA-SENDER', recipient: 'PA-RECIPIENT' },
          unwritten: p.member.charge ? { charge: unwrittenCharge(p.transfer, now), by: sandbox.chargesInCredit } : undefined,
        }),
      ),
    ),
  );
  return { planned, outcomes };
}

/** The sandbox's charge of a transfer, left for its credit to write. */
function unwrittenCharge(transfer: FiatTransfer, now: Date) {
  return {
    chargeRef: `ch_${transfer.id}`,
    idempotencyKey: transfer.id,
    cardRef: 'card_cprop',
    currency: transfer.currency,
    amountMinor: transfer.amountMinor + transfer.feeMinor,
    createdAt: now,
  };
}

/** The sandbox charges recorded under a transfer's key, as refs. */
async function chargesOf(transferId: string): Promise<string[]> {
  const rows = await sql<{ ref: string }>`select ref from sandbox_charges where idempotency_key = ${transferId}`.execute(database.db);
  return rows.rows.map((r) => r.ref);
}

/** Checks each member's answer against the database; returns the transfers this round credited. */
async function checkAnswers(round: Awaited<ReturnType<typeof runRound>>): Promise<FiatTransfer[]> {
  const credited: FiatTransfer[] = [];
  const values = new Map<string, number>();
  round.outcomes.forEach((outcome, i) => {
    const p = round.planned[i]!;
    if (p.member.kind === 'crash') {
      expect(outcome.status === 'rejected' && outcome.reason instanceof Crash).toBe(true);
      return;
    }
    expect(outcome.status, String(outcome.status === 'rejected' ? outcome.reason : '')).toBe('fulfilled');
    const value = (outcome as PromiseFulfilledResult<FiatTransfer | null>).value;
    if (value !== null) {
      expect(value).toMatchObject({ id: p.transfer.id, status: 'completed', processorRef: `ch_${p.transfer.id}` });
      values.set(p.transfer.id, (values.get(p.transfer.id) ?? 0) + 1);
      credited.push(value);
    }
  });
  for (const p of round.planned) {
    const row = await database.db.selectFrom('fiat_transfers').select('status').where('id', '=', p.transfer.id).executeTakeFirstOrThrow();
    const total = await moved(p.transfer.id);
    if (p.member.kind === 'crash') {
      // A crashing member fails alone: its transfer stays as it was, nothing moved.
      expect(row.status).toBe('processing');
      expect(total).toBe(0n);
      expect(await chargesOf(p.transfer.id)).toEqual([]);
    } else {
      // Every other member's transfer is completed, answered with a value exactly once (by this
      // round, or by an earlier one for a replay), and moved amount + fee once.
      expect(row.status).toBe('completed');
      expect(total).toBe(p.transfer.amountMinor + p.transfer.feeMinor);
      if (p.member.kind !== 'replay') expect(values.get(p.transfer.id)).toBe(1);
      else expect(values.get(p.transfer.id)).toBeUndefined();
      // The charge the crediting member carried is written once, with its credit; a replay's is not.
      if (p.first) expect(await chargesOf(p.transfer.id)).toEqual(p.member.charge ? [`ch_${p.transfer.id}`] : []);
    }
  }
  return credited;
}

/** The model's money after the round's receipts: exact when their order cannot matter, otherwise checked within bounds and taken as read. */
function expectReceipts(before: Money, after: Money, receipts: { amount: bigint; held: boolean }[], label: string): void {
  const sum = receipts.reduce((s, r) => s + r.amount, 0n);
  const repaid = min(before.owed, sum);
  expect(after.owed, label).toBe(before.owed - repaid);
  expect(after.held + after.available, label).toBe(before.held + before.available + sum - repaid);
  const heldSum = receipts.filter((r) => r.held).reduce((s, r) => s + r.amount, 0n);
  expect(after.held >= before.held && after.held - before.held <= heldSum, label).toBe(true);
  expect(after.available >= before.available && after.available - before.available <= sum - heldSum, label).toBe(true);
  if (before.owed === 0n || heldSum === 0n || heldSum === sum) {
    expect(after.held - before.held, label).toBe(heldSum - (heldSum === sum ? repaid : 0n));
  }
}

async function readMoney(user: number): Promise<Money> {
  const m = await userMoney(database.db, user, 'USD');
  return { held: m.heldMinor, available: m.availableMinor, owed: m.owedMinor };
}

async function expectBooks(users: number[], credited: number): Promise<void> {
  expect(await checkLedgerInvariants(database.db)).toEqual([]);
  for (const user of users) {
    const money = await readMoney(user);
    if (money.owed > 0n) expect(money.held + money.available).toBe(0n);
    const holds = await sql<{ total: string | null }>`
      select sum(remaining)::text as total from fiat_holds where account_id = ${user} and released_at is null`.execute(database.db);
    expect(BigInt(holds.rows[0]?.total ?? '0')).toBe(money.held);
  }
  const events = await sql<{ n: string }>`
    select count(*)::text as n from events where subject_id like ${`tr_cprop_${runNo}_%`}`.execute(database.db);
  expect(Number(events.rows[0]!.n)).toBe(credited * 4);
}

async function runSteps(steps: Step[]): Promise<void> {
  const run = ++runNo;
  const users = await createUsers(database.db, USERS);
  const [sender] = await createUsers(database.db, 1);
  const answered: FiatTransfer[] = [];
  let seq = 0;
  for (const s of steps) {
    if (s.kind === 'owe') {
      await database.db.transaction().execute((trx) =>
        takeBack(trx, {
          accountId: users[s.user]!,
          currency: 'USD',
          amountMinor: BigInt(s.amount),
          transferId: null,
          to: platformAccount('processor_clearing', 'USD'),
          operationId: `cprop:owe:${run}:${++seq}`,
          code: 'property_take_back',
        }),
      );
      continue;
    }
    const before = await Promise.all(users.map(readMoney));
    const round = await runRound(run, () => ++seq, sender!, users, answered, s.members);
    const credited = await checkAnswers(round);
    for (let i = 0; i < USERS; i++) {
      const receipts = credited
        .filter((t) => t.recipientAccountId === users[i])
        .map((t) => ({ amount: t.amountMinor, held: heldOf(round, t) }));
      expectReceipts(before[i]!, await readMoney(users[i]!), receipts, JSON.stringify(s));
    }
    answered.push(...credited);
    await expectBooks(users, answered.length);
  }
}

function heldOf(round: Awaited<ReturnType<typeof runRound>>, transfer: FiatTransfer): boolean {
  return round.planned.find((p) => p.transfer.id === transfer.id && p.member.kind !== 'replay')!.member.held;
}

describe('card credits in a group commit against a model', () => {
  it('credits each charged transfer once, repays debts first, keeps holds, and a crashing member fails alone', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 10 }), (steps) => runSteps(steps)),
      { numRuns: 15 },
    );
  }, 600_000);
});
