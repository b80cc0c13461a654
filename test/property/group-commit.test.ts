// Group commit (src/ledger/group-commit.ts) under concurrency, on whichever database the test
// helper opens (PGlite, or PostgreSQL when DATABASE_URL is set). Rounds of transfers are submitted
// at once, so that they share batches, written as the stablecoin transfer service writes them
// (stablecoin-transfer-batch.ts: the records under their Idempotency-Keys, the ledger operations
// checked in memory, the events), some of their batches also failing after everything was written. A model of the funded senders says what must hold: every
// success moved exactly its amount, once per key; a refusal for insufficient balance is only ever
// one the sender's balance justifies (senders only send, so their balance only falls: a refusal of
// an amount the final balance still covers would be a neighbour's failure); a member that fails
// after writing leaves nothing (its neighbours, run again alone, are unharmed); the ledger's
// invariants hold; each success has its two events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { commitOperation, feesOf } from '../helpers/ledger.js';
import { platformAccount, userAvailable } from '../../src/ledger/ledger-accounts.js';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { createGroupCommit, type BatchReport, type BatchWriter, type GroupCommit } from '../../src/ledger/group-commit.js';
import { AppError } from '../../src/platform/errors.js';
import { newId } from '../../src/platform/ids.js';
import { createTransferBatchWriter, transferMember, type TransferMember } from '../../src/stablecoin/stablecoin-transfer-batch.js';
import { createAccountLimits } from '../../src/compliance/limits/limits-service.js';
import { DEFAULT_LIMITS } from '../../src/config/limit-settings.js';
import { systemClock } from '../../src/platform/clock.js';
import type { StablecoinTransfer } from '../../src/stablecoin/stablecoin-transfer.js';
import { openTestDatabase } from '../helpers/test-database.js';
import { createUsers } from './ledger-helpers.js';

const SENDERS = 3;
const RECIPIENTS = 2;

let database: Database;
let groupCommit: GroupCommit<TransferMember, StablecoinTransfer | null>;

/** Transfers whose batch fails after it has written everything (as a constraint or a bug would). */
const crashing = new Set<string>();
class Crash extends Error {}

/**
 * The service's writer, then the crash of any batch holding a crashing member: after its writes
 * when it wrote them itself (carefully), or inside the one statement that writes them when they
 * go with the ledger's rows (a row that statement writes breaks a constraint).
 */
const crashingWriter: BatchWriter<TransferMember, StablecoinTransfer | null> = async (trx, batch, members) => {
  const written = await writeTransferBatch()(trx, batch, members);
  if (!members.some((m) => crashing.has(m.intent.id))) return written;
  // A member alone (written carefully, its limit volume alone in the ledger's statement) crashes after its writes.
  if (!written.alongside || members.length === 1) throw new Crash('crashed after writing');
  const breaking = sql`crash as (
      insert into ledger_transfers (operation_id, kind, debit_account_id, credit_account_id, asset, amount, code)
      values ('crash', 'posted', 1, 2, 'USDC', 0, 'crash') returning id)`;
  return { ...written, alongside: { ...written.alongside, clauses: [...written.alongside.clauses, breaking] } };
};

/** The service's writer, with the default limits (these amounts are far below them). */
function writeTransferBatch(): BatchWriter<TransferMember, StablecoinTransfer | null> {
  return createTransferBatchWriter({ limits: createAccountLimits({ db: database.db, clock: systemClock, settings: DEFAULT_LIMITS }) });
}

const HANDLES = { sender: 'PA-SENDER00', recipient: 'PA-RECIPIEN' };

/** How every batch ended, as the metrics see it. */
const reports: BatchReport[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
  // Small batches and a long wait: a round of requests is spread over several batches running at once.
  groupCommit = createGroupCommit(database.db, crashingWriter, {
    maxBatch: 6,
    maxWaitMs: 5,
    concurrency: 3,
    maxQueued: 1000,
    onBatch: (report) => reports.push(report),
  });
});
afterAll(async () => {
  await database?.close();
});

type Ending = 'commit' | 'crashAfterWriting';

interface Request {
  from: number;
  to: number;
  amountMinor: bigint;
  /** Index into a small pool of keys, so that keys repeat (replays and reuse), or none. */
  key: number | null;
  ending: Ending;
}

type Outcome =
  | { kind: 'sent'; transfer: StablecoinTransfer }
  | { kind: 'replay' }
  | { kind: 'insufficient' }
  | { kind: 'crashed' }
  | { kind: 'other'; error: unknown };

const request: fc.Arbitrary<Request> = fc.record({
  from: fc.integer({ min: 0, max: SENDERS - 1 }),
  to: fc.integer({ min: 0, max: RECIPIENTS - 1 }),
  amountMinor: fc.bigInt({ min: 100n, max: 4_000n }),
  key: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
  ending: fc.constantFrom<Ending>('commit', 'commit', 'commit', 'commit', 'commit', 'crashAfterWriting'),
});

/** What the transfer service hands the group commit, and then the request's ending. */
function submit(senders: number[], recipients: number[], r: Request, round: number): Promise<Outcome> {
  const intent: StablecoinTransfer = {
    id: newId('sct'),
    senderAccountId: senders[r.from]!,
    recipientAccountId: recipients[r.to]!,
    currency: 'USDC',
    amountMinor: r.amountMinor,
    feeMinor: r.amountMinor / 100n,
    status: 'complete',
    idempotencyKey: r.key === null ? null : `round-${round}-key-${r.key}`,
    createdAt: new Date(),
  };
  if (r.ending === 'crashAfterWriting') crashing.add(intent.id);
  // A keyed request's record goes in with its transfer (decision 0050): its hash tells another body
  // under the key, and its answer names the transfer.
  const keyAnswer =
    intent.idempotencyKey === null
      ? null
      : {
          accountId: intent.senderAccountId,
          key: intent.idempotencyKey,
          requestHash: `amount-${r.amountMinor}`,
          status: 200,
          body: intent.id,
        };
  return groupCommit.run(transferMember(intent, HANDLES, keyAnswer)).then(
    (transfer): Outcome => (transfer ? { kind: 'sent', transfer } : { kind: 'replay' }),
    (error: unknown): Outcome => {
      if (error instanceof AppError && error.code === 'insufficient_balance') return { kind: 'insufficient' };
      if (error instanceof Crash) return { kind: 'crashed' };
      return { kind: 'other', error };
    },
  );
}

async function spendable(owner: number): Promise<bigint> {
  const row = await database.db
    .selectFrom('ledger_accounts')
    .select(['balance', 'pending_debits'])
    .where('code', '=', `user:${owner}:available:USDC`)
    .executeTakeFirst();
  return row ? row.balance - row.pending_debits : 0n;
}

let round = 0;

describe('group commit of concurrent transfers', () => {
  it('refuses each overdraft alone, moves each success once per key, and leaves nothing of a failed member', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.bigInt({ min: 0n, max: 20_000n }), { minLength: SENDERS, maxLength: SENDERS }),
        fc.array(request, { minLength: 1, maxLength: 30 }),
        async (funding, requests) => {
          round++;
          const senders = await createUsers(database.db, SENDERS);
          const recipients = await createUsers(database.db, RECIPIENTS);
          for (const [i, amount] of funding.entries()) {
            if (amount === 0n) continue;
            await commitOperation(database.db, {
              operationId: newId('fund'),
              transfers: [
                {
                  type: 'posted',
                  debit: platformAccount('chain_custody', 'USDC'),
                  credit: userAvailable(senders[i]!, 'USDC'),
                  amountMinor: amount,
                  code: 'fund',
                },
              ],
            });
          }
          const feesBefore = await feesOf(database.db, 'USDC');
          reports.length = 0;
          const outcomes = await Promise.all(requests.map((r) => submit(senders, recipients, r, round)));
          // Every request ended in exactly one batch that committed or failed; a crash's batch was run again alone.
          const ended = reports.filter((b) => b.ending !== 'rerun_alone').reduce((n, b) => n + b.size, 0);
          expect(ended).toBe(requests.length);
          if (requests.some((r) => r.ending === 'crashAfterWriting'))
            expect(reports.filter((b) => b.ending === 'failed').reduce((n, b) => n + b.size, 0)).toBeGreaterThan(0);

          expect(outcomes.filter((o) => o.kind === 'other').map((o) => (o as { error: unknown }).error)).toEqual([]);
          // Each ending was answered as such (a crash reruns the batch's members alone; it stays a crash).
          outcomes.forEach((o, i) => {
            const ending = requests[i]!.ending;
            if (o.kind === 'crashed') expect(ending).toBe('crashAfterWriting');
            if (o.kind === 'sent') expect(ending).toBe('commit');
          });

          const sent = outcomes.flatMap((o) => (o.kind === 'sent' ? [o.transfer] : []));
          // The database holds exactly the transfers answered as sent: no failed member left a record.
          const rows = await database.db
            .selectFrom('stablecoin_transfers')
            .select(['id', 'sender_account_id', 'idempotency_key'])
            .where('sender_account_id', 'in', senders)
            .execute();
          expect(rows.map((r) => r.id).sort()).toEqual(sent.map((t) => t.id).sort());
          // One transfer per key and sender at most; a replay only where the key had a transfer.
          const keys = rows.flatMap((r) => (r.idempotency_key ? [`${r.sender_account_id}/${r.idempotency_key}`] : []));
          expect(new Set(keys).size).toBe(keys.length);
          // Exactly the keyed transfers sent have a key record, completed, with their answer: none
          // for a refused member, a crashed batch's member, or a replay.
          const records = await database.db
            .selectFrom('idempotency_keys')
            .select(['account_id', 'key', 'request_hash', 'state', 'response_body'])
            .where('account_id', 'in', senders)
            .execute();
          expect(records.map((k) => `${k.account_id}/${k.key}/${k.state}/${k.request_hash}/${k.response_body}`).sort()).toEqual(
            sent
              .filter((t) => t.idempotencyKey !== null)
              .map((t) => `${t.senderAccountId}/${t.idempotencyKey}/completed/amount-${t.amountMinor}/${t.id}`)
              .sort(),
          );
          const committed = await database.db
            .selectFrom('stablecoin_transfers')
            .select(['sender_account_id', 'idempotency_key'])
            .where('sender_account_id', 'in', senders)
            .execute();
          outcomes.forEach((o, j) => {
            if (o.kind !== 'replay') return;
            const r = requests[j]!;
            const key = `round-${round}-key-${r.key}`;
            expect(committed.some((c) => c.sender_account_id === senders[r.from] && c.idempotency_key === key)).toBe(true);
          });

          // Balances: each sender lost exactly what its successes sent, each recipient got the nets.
          for (const [i, owner] of senders.entries()) {
            const out = sent.filter((t) => t.senderAccountId === owner).reduce((n, t) => n + t.amountMinor, 0n);
            const left = await spendable(owner);
            expect(left).toBe(funding[i]! - out);
            // A refusal for the balance is one the balance justified: senders only send, so their
            // balance only fell, and an amount the final balance still covers was never short.
            requests.forEach((r, j) => {
              if (r.from === i && outcomes[j]!.kind === 'insufficient') expect(r.amountMinor).toBeGreaterThan(left);
            });
          }
          for (const owner of recipients) {
            const got = sent.filter((t) => t.recipientAccountId === owner).reduce((n, t) => n + t.amountMinor - t.feeMinor, 0n);
            expect(await spendable(owner)).toBe(got);
          }
          expect((await feesOf(database.db, 'USDC')) - feesBefore).toBe(sent.reduce((n, t) => n + t.feeMinor, 0n));
          // Each success has its two events, and nothing else has any.
          const events = await database.db
            .selectFrom('events')
            .select(['subject_id', 'type', 'account_id'])
            .where('account_id', 'in', [...senders, ...recipients])
            .execute();
          expect(events.map((e) => `${e.type}/${e.subject_id}/${e.account_id}`).sort()).toEqual(
            sent.flatMap((t) => [`transfer.received/${t.id}/${t.recipientAccountId}`, `transfer.sent/${t.id}/${t.senderAccountId}`]).sort(),
          );
          expect(await checkLedgerInvariants(database.db)).toEqual([]);
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);
});

describe('a batch whose commit fails', () => {
  it('fails every member, none of them answered as a success, and writes nothing', async () => {
    // A deferred constraint is checked at COMMIT: one member's row makes the whole batch's commit fail.
    await sql`create table if not exists gc_commit_parent (id integer primary key)`.execute(database.db);
    await sql`create table if not exists gc_commit_probe (parent integer references gc_commit_parent (id) deferrable initially deferred)`.execute(
      database.db,
    );
    const senders = await createUsers(database.db, 4);
    const [recipient] = await createUsers(database.db, 1);
    for (const owner of senders) {
      await commitOperation(database.db, {
        operationId: newId('fund'),
        transfers: [
          {
            type: 'posted',
            debit: platformAccount('chain_custody', 'USDC'),
            credit: userAvailable(owner, 'USDC'),
            amountMinor: 10_000n,
            code: 'fund',
          },
        ],
      });
    }
    let failing = '';
    // The service's writer; the batch holding the failing member also writes a row its commit refuses.
    const failingAtCommit: BatchWriter<TransferMember, StablecoinTransfer | null> = async (trx, batch, members) => {
      const written = await writeTransferBatch()(trx, batch, members);
      if (members.some((m) => m.intent.id === failing)) await sql`insert into gc_commit_probe (parent) values (42)`.execute(trx);
      return written;
    };
    const single = createGroupCommit(database.db, failingAtCommit, { maxBatch: 4, maxWaitMs: 50, concurrency: 1, maxQueued: 100 });
    const results = await Promise.allSettled(
      senders.map((owner, i) => {
        const intent: StablecoinTransfer = {
          id: newId('sct'),
          senderAccountId: owner,
          recipientAccountId: recipient!,
          currency: 'USDC',
          amountMinor: 1_000n,
          feeMinor: 10n,
          status: 'complete',
          idempotencyKey: null,
          createdAt: new Date(),
        };
        if (i === 2) failing = intent.id;
        return single.run(transferMember(intent, HANDLES));
      }),
    );
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
    for (const owner of senders) expect(await spendable(owner)).toBe(10_000n);
    expect(await spendable(recipient!)).toBe(0n);
    const rows = await database.db.selectFrom('stablecoin_transfers').select('id').where('sender_account_id', 'in', senders).execute();
    expect(rows).toEqual([]);
    expect(await checkLedgerInvariants(database.db)).toEqual([]);
  });
});
