// The ledger side of a group commit: many operations, one per request, in one database
// transaction. The batch takes every lock up front in the global order (accounts created in code
// order, then every account row locked in id order, in one statement that also reads them), so
// batches in one process or several never deadlock on account rows. From then on nobody else can
// change those rows until the commit: each member's operation is checked in memory against the
// balances as the members before it left them, and refused alone (insufficient_balance, nothing
// written) when it does not fit, or written in one statement when it does. A member whose work
// is rolled back to its savepoint (see group-commit.ts) takes its changes back here too.
//
// The fees of a batch go to one shard of the fees account (the batch's), so that batches running
// at the same time do not queue on one fees row through each other's commits.
import { sql } from 'kysely';
import { AppError, assert } from '../platform/errors.js';
import { inShard, specOf, type LedgerAccountKey } from './ledger-accounts.js';
import type { AppliedTransfer, Operation, Trx } from './ledger.js';
import {
  deltasOf,
  ensureAccounts,
  fitsEveryAccount,
  lockAccountRows,
  moveAndRecord,
  resolvedBetween,
  type EnsuredAccounts,
  type LockedAccount,
  type ResolvedTransfer,
} from './ledger-writes.js';

/** At most this many accounts locked by one batch: every loop has a bound. */
export const MAX_ACCOUNTS_PER_BATCH = 4096;

export interface LedgerBatch {
  readonly shard: number;
  readonly accounts: EnsuredAccounts;
  /** The locked rows as the members applied so far left them. */
  readonly locked: Map<number, LockedAccount>;
  /** The rows as they were before the current member changed them, to restore on its rollback. */
  readonly undo: Map<number, LockedAccount>;
  /** Accounts some applied operation wrote to (kept even if this batch created them). */
  readonly used: Set<number>;
  /** Those the current member wrote to first. */
  readonly usedByMember: Set<number>;
}

const open = new WeakMap<Trx, LedgerBatch>();

/** The batch `trx` belongs to, when it is a group commit's transaction. */
export function batchOf(trx: Trx): LedgerBatch | undefined {
  return open.get(trx);
}

/**
 * Starts a batch in `trx`: creates the accounts the members declared (fees in the batch's shard)
 * and locks and reads all of them, in the global order, before any member runs.
 */
export async function openBatch(trx: Trx, keys: readonly LedgerAccountKey[], shard: number): Promise<LedgerBatch> {
  const sharded = keys.map((key) => inShard(key, shard));
  const accounts = await ensureAccounts(trx, sharded);
  assert(accounts.size <= MAX_ACCOUNTS_PER_BATCH, 'batch locks a bounded number of accounts');
  const locked =
    accounts.size > 0
      ? await lockAccountRows(trx, [...new Set([...accounts.values()].map((a) => a.id))])
      : new Map<number, LockedAccount>();
  const batch: LedgerBatch = { shard, accounts, locked, undo: new Map(), used: new Set(), usedByMember: new Set() };
  open.set(trx, batch);
  return batch;
}

/** Marks the start of a member's work: what it changes from now on can be taken back. */
export function beginMember(batch: LedgerBatch): void {
  batch.undo.clear();
  batch.usedByMember.clear();
}

/** The member's work was rolled back to its savepoint: its balance changes are forgotten too. */
export function rollbackMember(batch: LedgerBatch): void {
  for (const [id, row] of batch.undo) batch.locked.set(id, row);
  for (const id of batch.usedByMember) batch.used.delete(id);
  beginMember(batch);
}

/**
 * Ends the batch before its commit: accounts it created that no applied operation wrote to
 * (only refused members named them) are removed, so that a refusal leaves nothing behind.
 */
export async function closeBatch(trx: Trx, batch: LedgerBatch): Promise<void> {
  open.delete(trx);
  const unused = [...batch.accounts.values()].filter((a) => a.created && !batch.used.has(a.id)).map((a) => a.id);
  if (unused.length > 0) await trx.deleteFrom('ledger_accounts').where('id', 'in', unused).execute();
}

/** An amount a member will take out of an account. */
export interface Spend {
  readonly account: LedgerAccountKey;
  readonly amountMinor: bigint;
}

/** True when every account may give what `spends` take from it, as the members before left it. */
export function fitsSpends(batch: LedgerBatch, spends: readonly Spend[]): boolean {
  const taken = new Map<number, bigint>();
  for (const spend of spends) {
    const account = batch.accounts.get(specOf(inShard(spend.account, batch.shard)).code);
    assert(account, 'a spent account was declared to the batch');
    taken.set(account.id, (taken.get(account.id) ?? 0n) + spend.amountMinor);
  }
  for (const [id, amount] of taken) {
    const row = batch.locked.get(id)!;
    if (!row.allow_negative && row.balance - row.pending_debits - amount < 0n) return false;
  }
  return true;
}

/** applyOperation inside a batch: the check in memory, then one statement. */
export async function applyInBatch(trx: Trx, batch: LedgerBatch, operation: Operation): Promise<AppliedTransfer[]> {
  const resolved = operation.transfers.map((input): ResolvedTransfer => {
    // Resolving a pending transfer locks a transfer row, outside the order the batch took its
    // locks in: such operations run in transactions of their own, never in a batch.
    assert(!('pendingTransferId' in input), 'a batch moves posted and pending transfers only');
    return resolvedBetween(
      batch.accounts.get(specOf(inShard(input.debit, batch.shard)).code),
      batch.accounts.get(specOf(inShard(input.credit, batch.shard)).code),
      input,
    );
  });
  const deltas = deltasOf(resolved);
  if (!fitsEveryAccount(batch.locked, deltas)) {
    throw new AppError('insufficient_balance', 'Insufficient balance for this operation.');
  }
  const applied = await moveAndRecord(trx, operation.operationId, deltas, resolved);
  for (const [id, d] of deltas) {
    const row = batch.locked.get(id)!;
    if (!batch.undo.has(id)) batch.undo.set(id, row);
    batch.locked.set(id, {
      ...row,
      balance: row.balance + d.balance,
      pending_debits: row.pending_debits + d.pendingDebits,
      pending_credits: row.pending_credits + d.pendingCredits,
    });
    if (!batch.used.has(id)) batch.usedByMember.add(id);
    batch.used.add(id);
  }
  return applied;
}

/** The statement that takes a member's work back to where it started. */
export async function rollbackToMemberStart(trx: Trx): Promise<void> {
  await sql`rollback to savepoint member`.execute(trx);
}

/** Marks where a member's work starts in the batch's transaction. */
export async function markMemberStart(trx: Trx): Promise<void> {
  await sql`savepoint member`.execute(trx);
}
