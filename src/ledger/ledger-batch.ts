// The ledger side of a group commit: the operations of many requests, one each, written in one
// database transaction with a fixed number of statements however many there are. The batch takes
// every lock up front in the global order (accounts created in code order, then every account row
// locked in id order, in one statement that also reads them), so batches in one process or several
// never deadlock on account rows. From then on nobody else can change those rows until the
// commit: each member's operation is checked in memory against the balances as the members before
// it left them, and refused alone (nothing staged) when it does not fit. The operations that fit
// are then written together: every balance change and every transfer row in one statement.
//
// The fees of a batch go to one shard of the fees account (the batch's), so that batches running
// at the same time do not queue on one fees row through each other's commits.
import { AppError, assert } from '../platform/errors.js';
import { inShard, specOf, type LedgerAccountKey } from './ledger-accounts.js';
import { createKnownAccounts, type KnownAccounts } from './known-accounts.js';
import type { Operation } from './ledger.js';
import type { Trx } from '../db/transaction.js';
import {
  deltasOf,
  ensureAccounts,
  fitsEveryAccount,
  lockAccountRows,
  moveAndRecordBatch,
  resolvedBetween,
  type Alongside,
  type Delta,
  type EnsuredAccounts,
  type LockedAccount,
  type RecordedTransfer,
} from './ledger-writes.js';

/** At most this many accounts locked by one batch: every loop has a bound. */
export const MAX_ACCOUNTS_PER_BATCH = 4096;

export interface LedgerBatch {
  readonly shard: number;
  readonly accounts: EnsuredAccounts;
  /** The locked rows as the operations staged so far leave them. */
  readonly locked: Map<number, LockedAccount>;
  /** What the staged operations change on each account, summed. */
  readonly deltas: Map<number, Delta>;
  /** The transfer rows of the staged operations, in the order they were staged. */
  readonly rows: RecordedTransfer[];
}

/**
 * Starts a batch in `trx`: creates the accounts the members declared (fees in the batch's shard)
 * unless `known` has them all, and locks and reads all of them, in the global
 * order, before any member is looked at.
 */
export async function openBatch(
  trx: Trx,
  keys: readonly LedgerAccountKey[],
  shard: number,
  known: KnownAccounts = createKnownAccounts(0),
): Promise<LedgerBatch> {
  const sharded = keys.map((key) => inShard(key, shard));
  // Accounts the process has seen committed need no creating; the others are created (or found)
  // first, in code order, and remembered when they existed before this transaction.
  const accounts = new Map(known.some(sharded.map((key) => specOf(key).code)));
  const unknown = sharded.filter((key) => !accounts.has(specOf(key).code));
  if (unknown.length > 0) {
    const ensured = await ensureAccounts(trx, unknown);
    known.remember(ensured);
    for (const [code, account] of ensured) accounts.set(code, account);
  }
  assert(accounts.size <= MAX_ACCOUNTS_PER_BATCH, 'batch locks a bounded number of accounts');
  const locked =
    accounts.size > 0
      ? await lockAccountRows(trx, [...new Set([...accounts.values()].map((a) => a.id))])
      : new Map<number, LockedAccount>();
  return { shard, accounts, locked, deltas: new Map(), rows: [] };
}

/**
 * Stages `operation` when it fits the balances the operations staged before it left: true, and
 * the locked balances move in memory; false (insufficient balance), and nothing changes. Only
 * posted and pending transfers between accounts the batch declared: resolving a pending transfer
 * locks a transfer row, outside the order the batch took its locks in.
 */
export function stageOperation(batch: LedgerBatch, operation: Operation): boolean {
  const resolved = operation.transfers.map((input) => {
    assert(!('pendingTransferId' in input), 'a batch moves posted and pending transfers only');
    return resolvedBetween(
      batch.accounts.get(specOf(inShard(input.debit, batch.shard)).code),
      batch.accounts.get(specOf(inShard(input.credit, batch.shard)).code),
      input,
    );
  });
  const deltas = deltasOf(resolved);
  if (!fitsEveryAccount(batch.locked, deltas)) return false;
  for (const [id, d] of deltas) {
    const row = batch.locked.get(id)!;
    batch.locked.set(id, {
      ...row,
      balance: row.balance + d.balance,
      pending_debits: row.pending_debits + d.pendingDebits,
      pending_credits: row.pending_credits + d.pendingCredits,
    });
    const sum = batch.deltas.get(id) ?? { balance: 0n, pendingDebits: 0n, pendingCredits: 0n };
    batch.deltas.set(id, {
      balance: sum.balance + d.balance,
      pendingDebits: sum.pendingDebits + d.pendingDebits,
      pendingCredits: sum.pendingCredits + d.pendingCredits,
    });
  }
  for (const transfer of resolved) batch.rows.push({ operationId: operation.operationId, transfer });
  return true;
}

/** The refusal of an operation stageOperation did not take. */
export function insufficientBalance(): AppError {
  return new AppError('insufficient_balance', 'Insufficient balance for this operation.');
}

/**
 * Writes what the staged operations change, in one statement (with the rows `alongside` names,
 * the members' own), then removes the accounts this
 * batch created that no staged operation moved (only refused members named them), so that a
 * refusal leaves nothing behind. Called once, before the commit.
 */
export async function writeBatch(trx: Trx, batch: LedgerBatch, alongside?: Alongside): Promise<void> {
  assert(!alongside || batch.rows.length > 0, 'rows alongside the ledger rows of a batch that moves money');
  if (batch.rows.length > 0) await moveAndRecordBatch(trx, batch.deltas, batch.rows, alongside);
  const unused = [...batch.accounts.values()].filter((a) => a.created && !batch.deltas.has(a.id)).map((a) => a.id);
  if (unused.length > 0) await trx.deleteFrom('ledger_accounts').where('id', 'in', unused).execute();
}
