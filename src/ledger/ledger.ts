// The double-entry core. An operation is a set of transfers applied atomically inside the caller's
// transaction; user accounts never go below zero, under any concurrency, because every account row
// an operation moves is locked first and its new balance checked before anything is written (and a
// CHECK constraint backs it up). A refused operation writes nothing, so a caller that catches the
// refusal and commits its transaction anyway leaves the ledger as it was. Locks are always taken in
// one global order, so that two operations or batches never deadlock on each other: first new
// ledger accounts are created in code order, then the pending transfers being resolved are locked
// in id order, then account rows are locked in id order (a group commit's batch, all of them up
// front: ledger-batch.ts; one operation, in one explicit ordered statement). An operation costs
// few round trips: one statement finds or creates all its accounts, one locks and reads them, one
// moves the balances and records the transfers.
import type { Trx } from '../db/transaction.js';
import { AppError, assert } from '../platform/errors.js';
import { specOf, type LedgerAccountKey } from './ledger-accounts.js';
import {
  deltasOf,
  ensureAccounts,
  fitsEveryAccount,
  lockAccountRows,
  moveAndRecord,
  resolvedBetween,
  type EnsuredAccounts,
  type ResolvedTransfer,
} from './ledger-writes.js';
import type { AppliedTransfer } from './ledger-writes.js';

export type { AppliedTransfer };

export { ensureAccounts } from './ledger-writes.js';

/** At most this many transfers in one operation: every loop has a bound. */
export const MAX_TRANSFERS_PER_OPERATION = 32;

export type TransferInput =
  | {
      readonly type: 'posted' | 'pending';
      readonly debit: LedgerAccountKey;
      readonly credit: LedgerAccountKey;
      readonly amountMinor: bigint;
      readonly code: string;
    }
  | { readonly type: 'post_pending' | 'void_pending'; readonly pendingTransferId: bigint; readonly code: string };

export interface Operation {
  readonly operationId: string;
  readonly transfers: readonly TransferInput[];
}

/** Applies one operation inside `trx`. Throws AppError('insufficient_balance') and changes nothing when any user account would go below zero. */
export async function applyOperation(trx: Trx, operation: Operation): Promise<AppliedTransfer[]> {
  assert(operation.transfers.length > 0, 'an operation has at least one transfer');
  assert(operation.transfers.length <= MAX_TRANSFERS_PER_OPERATION, 'too many transfers in one operation');
  const { accounts } = await lockInOrder(trx, operation);
  const resolved: ResolvedTransfer[] = [];
  for (const input of operation.transfers) resolved.push(await resolveTransfer(trx, input, accounts));

  const deltas = deltasOf(resolved);

  const locked = await lockAccountRows(trx, [...deltas.keys()]);
  if (!fitsEveryAccount(locked, deltas)) {
    // Nothing was written by this operation but the accounts it created; those go too, so that the
    // refusal leaves nothing behind even when the caller goes on to commit.
    const created = [...accounts.values()].filter((a) => a.created).map((a) => a.id);
    if (created.length > 0) await trx.deleteFrom('ledger_accounts').where('id', 'in', created).execute();
    throw new AppError('insufficient_balance', 'Insufficient balance for this operation.');
  }
  return moveAndRecord(
    trx,
    deltas,
    resolved.map((transfer) => ({ operationId: operation.operationId, transfer })),
  );
}

/**
 * Takes the locks `operation` needs before its account rows, in the global order (see the top of
 * this file): creates the ledger accounts it names in code order (creating a row holds it until
 * commit, and an insert that meets a row being created or updated by another transaction waits
 * for it), then locks the pending transfers it resolves in id order.
 */
async function lockInOrder(trx: Trx, operation: Operation): Promise<{ accounts: EnsuredAccounts }> {
  const keys = new Map<string, LedgerAccountKey>();
  const pendingIds = new Set<bigint>();
  for (const input of operation.transfers) {
    if ('pendingTransferId' in input) {
      pendingIds.add(input.pendingTransferId);
    } else {
      keys.set(specOf(input.debit).code, input.debit);
      keys.set(specOf(input.credit).code, input.credit);
    }
  }
  const accounts = await ensureAccounts(trx, [...keys.values()]);
  // One pending resolution locks its row where it is read; several are locked here, in id order.
  if (pendingIds.size > 1) {
    await trx
      .selectFrom('ledger_transfers')
      .select('id')
      .where(
        'id',
        'in',
        [...pendingIds].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
      )
      .orderBy('id')
      .forUpdate()
      .execute();
  }
  return { accounts };
}

async function resolveTransfer(trx: Trx, input: TransferInput, accounts: EnsuredAccounts): Promise<ResolvedTransfer> {
  if ('pendingTransferId' in input) return resolvePendingResolution(trx, input.type, input.pendingTransferId, input.code);
  return resolvedBetween(accounts.get(specOf(input.debit).code), accounts.get(specOf(input.credit).code), input);
}

async function resolvePendingResolution(
  trx: Trx,
  kind: 'post_pending' | 'void_pending',
  pendingTransferId: bigint,
  code: string,
): Promise<ResolvedTransfer> {
  // The row lock makes concurrent resolutions of one pending transfer queue up; the unique index on
  // pending_transfer_id makes the loser fail even if it got past this check.
  const pending = await trx
    .selectFrom('ledger_transfers')
    .select(['id', 'kind', 'debit_account_id', 'credit_account_id', 'asset', 'amount'])
    .where('id', '=', pendingTransferId)
    .forUpdate()
    .executeTakeFirst();
  assert(pending && pending.kind === 'pending', 'only a pending transfer can be posted or voided');
  const resolution = await trx
    .selectFrom('ledger_transfers')
    .select('id')
    .where('pending_transfer_id', '=', pendingTransferId)
    .executeTakeFirst();
  assert(!resolution, 'a pending transfer is resolved once');
  return {
    kind,
    debitId: pending.debit_account_id,
    creditId: pending.credit_account_id,
    asset: pending.asset,
    amount: pending.amount,
    pendingTransferId: pending.id,
    code,
  };
}
