// Group commit: concurrent requests of one process that move money share one database
// transaction, so that they share its commit (one WAL flush for the batch instead of one per
// request), its locks are taken once, and its writes are a fixed number of statements whatever
// its size: the rows the members write go out in the ledger's one statement, beside the balances
// and ledger rows (see the batch writer of each kind of request, e.g.
// stablecoin/stablecoin-transfer-batch.ts, and decision 0022). A request
// hands over a member: the ledger accounts it will move and the data its writer needs. The writer
// gets the batch's transaction with those accounts already locked and read (ledger-batch.ts), and
// answers each member with its own result or refusal: a member refused for its balance is checked
// in memory and refused alone, never failing its neighbours. Every member is answered only after
// the batch's commit.
//
// A batch closes when it is full (`maxBatch`) or when its first member has waited `maxWaitMs`;
// at most `concurrency` batches run at once, and requests that arrive meanwhile wait for the next.
// If anything fails the batch before its commit (a deadlock with another process, a constraint
// no member checked, a bug), the batch is rolled back whole and every member runs again alone, in
// a transaction of its own (a batch of one, taking its locks in the same order), so that each gets
// exactly what it would have got without batching. If the commit itself fails, its outcome is
// unknown: every member gets that error, as it would have alone, and never a 2xx.
import type { Db } from '../db/database.js';
import { AppError } from '../platform/errors.js';
import { FEE_SHARDS, type LedgerAccountKey } from './ledger-accounts.js';
import { openBatch, writeBatch, type LedgerBatch } from './ledger-batch.js';
import { createKnownAccounts, type KnownAccounts } from './known-accounts.js';
import type { Trx } from '../db/transaction.js';
import type { Alongside } from './ledger-writes.js';

export interface GroupCommitOptions {
  /** A batch closes at this many members... */
  maxBatch: number;
  /** ...or when its first member has waited this long. */
  maxWaitMs: number;
  /** Batches running at once, each on a connection of its own (PGlite has one: 1). */
  concurrency: number;
  /** Members waiting beyond this many are refused at once (503 service_unavailable) rather than queued without bound. */
  maxQueued: number;
  /** Told of every batch once it has ended, for the metrics. */
  onBatch?: (report: BatchReport) => void;
}

/**
 * A batch that ended: how many members, and whether it committed, was rolled back and run again
 * member by member, or failed (a batch of one before its commit, or any batch at its commit).
 */
export interface BatchReport {
  size: number;
  ending: 'committed' | 'rerun_alone' | 'failed';
}

/** Members waiting beyond this many are refused with 503 rather than queued without bound. */
export const MAX_QUEUED_MEMBERS = 10_000;

/** What every member declares before its batch starts. */
export interface MemberPlan {
  /** Every ledger account the member's operation names: the batch locks them before any member is written. */
  readonly accounts: readonly LedgerAccountKey[];
}

/** Each member's answer: its result, or the error its request fails with. */
export type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

/** A batch writer's answer: one outcome per member, in order, and the rows to write with the ledger's. */
export interface WrittenMembers<R> {
  readonly outcomes: Outcome<R>[];
  /** The members' own rows, written in the ledger's statement: one round trip for all of them. */
  readonly alongside?: Alongside;
}

/**
 * Writes a batch's members in `trx`, where `batch` holds their accounts locked and read: stages
 * each member's ledger operation (stageOperation) and writes its rows, a fixed number of
 * statements for the whole batch, or gives them back to be written in the ledger's statement.
 * The group commit writes the staged ledger operations after it returns. Throwing fails the batch
 * (its members are then run again alone, each a batch of one); a member's own refusal is an
 * outcome, not a throw.
 */
export type BatchWriter<M extends MemberPlan, R> = (trx: Trx, batch: LedgerBatch, members: readonly M[]) => Promise<WrittenMembers<R>>;

/** A batch writer that also gets what the batch's preparer learnt (below). */
export type PreparedBatchWriter<M extends MemberPlan, R, P> = (
  trx: Trx,
  batch: LedgerBatch,
  members: readonly M[],
  prepared: P,
) => Promise<WrittenMembers<R>>;

/**
 * A preparer's answer: more ledger accounts for the batch to lock (found only under the locks it
 * took, e.g. what a recipient owes), and what it learnt, handed to the writer.
 */
export interface Prepared<P> {
  readonly accounts: readonly LedgerAccountKey[];
  readonly state: P;
}

/**
 * Runs first in a batch's transaction, before any ledger lock: takes the locks that come before the
 * ledger's in the global order (a card credit's transfer rows, then its recipients' accounts rows
 * in id order: fiat/card-risk/user-money.ts). Throwing fails the batch, as the writer's throw does.
 */
export type BatchPreparer<M extends MemberPlan, P> = (trx: Trx, members: readonly M[]) => Promise<Prepared<P>>;

export interface GroupCommit<M extends MemberPlan, R> {
  /** Resolves or rejects with the member's outcome, once its batch's transaction has committed. */
  run(member: M): Promise<R>;
}

interface Waiting<M> {
  member: M;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export function createGroupCommit<M extends MemberPlan, R, P = undefined>(
  db: Db,
  write: PreparedBatchWriter<M, R, P>,
  options: GroupCommitOptions,
  prepare?: BatchPreparer<M, P>,
): GroupCommit<M, R> {
  const queue: Waiting<M>[] = [];
  // Each running batch has a slot; a slot's fee shard is the same for the process's life, and the
  // process's offset spreads several processes over the shards.
  const freeSlots = Array.from({ length: options.concurrency }, (_, i) => i);
  const shardOffset = Math.floor(Math.random() * FEE_SHARDS);
  // Per group commit (one per database handle), never per module: tests open many databases.
  const known = createKnownAccounts();
  let timer: NodeJS.Timeout | null = null;

  function startBatches(): void {
    if (timer) clearTimeout(timer);
    timer = null;
    while (freeSlots.length > 0 && queue.length > 0) {
      const slot = freeSlots.pop()!;
      const waiting = queue.splice(0, options.maxBatch);
      void runBatch(db, { write, prepare }, waiting, { shard: (shardOffset + slot) % FEE_SHARDS, known }, options.onBatch).finally(() => {
        freeSlots.push(slot);
        // Those that arrived while this batch ran have waited long enough: they go at once.
        startBatches();
      });
    }
  }

  return {
    run(member: M): Promise<R> {
      if (queue.length >= options.maxQueued) {
        return Promise.reject(
          new AppError(
            'service_unavailable',
            'Too many transfers are waiting to be written; retry in a moment.',
            {},
            { 'Retry-After': '1' },
          ),
        );
      }
      return new Promise<R>((resolve, reject) => {
        queue.push({ member, resolve: resolve as (value: unknown) => void, reject });
        if (freeSlots.length === 0) return; // a running batch starts the next when it ends
        if (queue.length >= options.maxBatch) startBatches();
        else timer ??= setTimeout(startBatches, options.maxWaitMs);
      });
    },
  };
}

async function runBatch<M extends MemberPlan, R, P>(
  db: Db,
  steps: { write: PreparedBatchWriter<M, R, P>; prepare: BatchPreparer<M, P> | undefined },
  waiting: readonly Waiting<M>[],
  where: { shard: number; known: KnownAccounts },
  onBatch: GroupCommitOptions['onBatch'],
): Promise<void> {
  const members = waiting.map((w) => w.member);
  let outcomes: Outcome<R>[] = [];
  let committing = false;
  try {
    await db.transaction().execute(async (trx) => {
      // Accounts first, then whatever the members write (their records under Idempotency-Keys):
      // every transaction of a group commit takes its locks in this order, alone or not.
      // The preparer's locks (when there is one) come before the ledger's, in the global order.
      const prepared = steps.prepare ? await steps.prepare(trx, members) : { accounts: [], state: undefined as P };
      const batch = await openBatch(trx, [...members.flatMap((m) => m.accounts), ...prepared.accounts], where.shard, where.known);
      const written = await steps.write(trx, batch, members, prepared.state);
      outcomes = written.outcomes;
      if (outcomes.length !== members.length) throw new Error('invariant violated: a batch writer answers every member');
      await writeBatch(trx, batch, written.alongside);
      committing = true;
    });
  } catch (error) {
    where.known.clear();
    if (!committing && waiting.length > 1) {
      // Rolled back whole before its commit: nothing of it was written. Each member alone.
      onBatch?.({ size: waiting.length, ending: 'rerun_alone' });
      await Promise.all(waiting.map((w) => runBatch(db, steps, [w], where, onBatch)));
      return;
    }
    onBatch?.({ size: waiting.length, ending: 'failed' });
    for (const w of waiting) w.reject(error);
    return;
  }
  onBatch?.({ size: waiting.length, ending: 'committed' });
  waiting.forEach((w, i) => {
    const outcome = outcomes[i]!;
    if (outcome.ok) w.resolve(outcome.value);
    else w.reject(outcome.error);
  });
}
