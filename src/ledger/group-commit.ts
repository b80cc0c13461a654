// Group commit: concurrent requests of one process that move money share one database
// transaction, so that they share its commit (one WAL flush for the batch instead of one per
// request) and its locks are taken once. A request hands over the ledger accounts its work will
// move and the work itself, a callback on the transaction, exactly what it would have run in a
// transaction of its own: its record, its ledger operation, its events. The callback runs inside
// the batch under a savepoint, so one member's refusal (an AppError: insufficient balance, a key
// used for another transfer...) is rolled back alone and never fails its neighbours. Every member
// is answered only after the batch's commit, with its own result or error.
//
// A batch closes when it is full (`maxBatch`) or when its first member has waited `maxWaitMs`;
// at most `concurrency` batches run at once, and requests that arrive meanwhile wait for the next.
// If anything other than a member's AppError fails the batch before its commit (a deadlock with
// another process, a bug in one member), the batch is rolled back whole and every member runs
// again alone, in a transaction of its own (a batch of one, taking its locks in the same order),
// so that each gets exactly what it would have got without batching. If the commit itself fails, its outcome is unknown: every member gets that
// error, as it would have alone, and never a 2xx.
import type { Db } from '../db/database.js';
import { AppError } from '../platform/errors.js';
import { FEE_SHARDS, type LedgerAccountKey } from './ledger-accounts.js';
import {
  beginMember,
  closeBatch,
  fitsSpends,
  markMemberStart,
  openBatch,
  rollbackMember,
  rollbackToMemberStart,
  type Spend,
} from './ledger-batch.js';
import type { Trx } from './ledger.js';

export interface GroupCommitOptions {
  /**
   * A batch closes at this many members. Each member's savepoint that writes takes a
   * subtransaction id; PostgreSQL keeps up to 64 per transaction in shared memory before every
   * other session's snapshots get slower, so batches stay below that.
   */
  maxBatch: number;
  /** ...or when its first member has waited this long. */
  maxWaitMs: number;
  /** Batches running at once, each on a connection of its own (PGlite has one: 1). */
  concurrency: number;
  /** Members waiting beyond this many are refused at once (503 service_unavailable) rather than queued without bound. */
  maxQueued: number;
}

export const DEFAULT_GROUP_COMMIT: GroupCommitOptions = { maxBatch: 48, maxWaitMs: 2, concurrency: 4, maxQueued: 10_000 };

/** What a member's work declares before it runs. */
export interface MemberPlan {
  /** Every ledger account the work's operations name: the batch locks them before any member runs. */
  readonly accounts: readonly LedgerAccountKey[];
  /**
   * What the work takes out of accounts that may not go negative, when it knows. Such a member is
   * checked against the balances before its work runs, and refused (insufficient_balance) with
   * nothing written, so it needs no savepoint (a round trip saved). Its work must then not fail
   * with an AppError: if it does, the batch is run again with every member alone.
   */
  readonly spends?: readonly Spend[];
}

export interface GroupCommit {
  /**
   * Runs `work` inside a transaction shared with other requests, after the batch has locked the
   * plan's accounts; resolves or rejects with what `work` returned or threw (or the refusal of
   * the plan's spends), once the transaction has committed.
   */
  run<T>(plan: MemberPlan, work: (trx: Trx) => Promise<T>): Promise<T>;
}

interface Member extends MemberPlan {
  work: (trx: Trx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export function createGroupCommit(db: Db, options: GroupCommitOptions = DEFAULT_GROUP_COMMIT): GroupCommit {
  const queue: Member[] = [];
  // Each running batch has a slot; a slot's fee shard is the same for the process's life, and the
  // process's offset spreads several processes over the shards.
  const freeSlots = Array.from({ length: options.concurrency }, (_, i) => i);
  const shardOffset = Math.floor(Math.random() * FEE_SHARDS);
  let timer: NodeJS.Timeout | null = null;

  function startBatches(): void {
    if (timer) clearTimeout(timer);
    timer = null;
    while (freeSlots.length > 0 && queue.length > 0) {
      const slot = freeSlots.pop()!;
      const members = queue.splice(0, options.maxBatch);
      void runBatch(db, members, (shardOffset + slot) % FEE_SHARDS).finally(() => {
        freeSlots.push(slot);
        // Those that arrived while this batch ran have waited long enough: they go at once.
        startBatches();
      });
    }
  }

  return {
    run<T>(plan: MemberPlan, work: (trx: Trx) => Promise<T>): Promise<T> {
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
      return new Promise<T>((resolve, reject) => {
        queue.push({ ...plan, work, resolve: resolve as (value: unknown) => void, reject });
        if (freeSlots.length === 0) return; // a running batch starts the next when it ends
        if (queue.length >= options.maxBatch) startBatches();
        else timer ??= setTimeout(startBatches, options.maxWaitMs);
      });
    },
  };
}

async function runBatch(db: Db, members: readonly Member[], shard: number): Promise<void> {
  // A member alone needs no savepoint: its failure rolls the transaction back, as without batching.
  const alone = members.length === 1;
  const outcomes: Outcome[] = [];
  let committing = false;
  try {
    await db.transaction().execute(async (trx) => {
      // Accounts first, then whatever the members write (their records under Idempotency-Keys):
      // every transaction of a group commit takes its locks in this order, alone or not.
      const batch = await openBatch(
        trx,
        members.flatMap((m) => m.accounts),
        shard,
      );
      for (const member of members) {
        if (alone) {
          outcomes.push({ ok: true, value: await member.work(trx) });
          continue;
        }
        if (member.spends) {
          // Checked up front: refused with nothing written, or run with no savepoint (any error
          // it throws fails the batch, whose members then run alone).
          if (!fitsSpends(batch, member.spends)) {
            outcomes.push({ ok: false, error: new AppError('insufficient_balance', 'Insufficient balance for this operation.') });
            continue;
          }
          beginMember(batch);
          outcomes.push({ ok: true, value: await member.work(trx) });
          continue;
        }
        await markMemberStart(trx);
        beginMember(batch);
        try {
          outcomes.push({ ok: true, value: await member.work(trx) });
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          await rollbackToMemberStart(trx);
          rollbackMember(batch);
          outcomes.push({ ok: false, error });
        }
      }
      await closeBatch(trx, batch);
      committing = true;
    });
  } catch (error) {
    if (!committing && !alone) {
      // Rolled back whole before its commit: nothing of it was written. Each member alone.
      await Promise.all(members.map((member) => runBatch(db, [member], shard)));
      return;
    }
    for (const member of members) member.reject(error);
    return;
  }
  members.forEach((member, i) => {
    const outcome = outcomes[i]!;
    if (outcome.ok) member.resolve(outcome.value);
    else member.reject(outcome.error);
  });
}
