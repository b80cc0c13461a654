// The double-entry core. An operation is a set of transfers applied atomically inside the caller's
// transaction; user accounts never go below zero, under any concurrency, because every account row
// an operation moves is locked first and its new balance checked before anything is written (and a
// CHECK constraint backs it up). A refused operation writes nothing, so a caller that catches the
// refusal and commits its transaction anyway leaves the ledger as it was. Locks are always taken in
// one global order, so that two operations or batches never deadlock on each other: first new
// ledger accounts are created in code order, then the pending transfers being resolved are locked
// in id order, then account rows are locked in id order (a batch, all of them up front; one
// operation, in one explicit ordered statement). An operation costs few round trips: one statement
// finds or creates all its accounts, one locks and reads them, one moves the balances and records
// the transfers.
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
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
  const { accounts } = await lockInOrder(trx, [operation], { lockAccountRows: false });
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

/** Runs one operation in its own transaction. */
export async function commitOperation(db: Db, operation: Operation): Promise<AppliedTransfer[]> {
  return db.transaction().execute((trx) => applyOperation(trx, operation));
}

export type BatchResult = { ok: true; transfers: AppliedTransfer[] } | { ok: false; error: AppError };

/** At most this many operations in one batch. */
export const MAX_OPERATIONS_PER_BATCH = 256;

/**
 * Applies many operations in one database transaction, each isolated by a savepoint: one that
 * fails (insufficient balance) is rolled back alone and reported, the others commit together.
 * This is the seam for coalescing requests into fewer transactions.
 */
export async function commitBatch(db: Db, operations: readonly Operation[]): Promise<BatchResult[]> {
  assert(operations.length <= MAX_OPERATIONS_PER_BATCH, 'batch within bound');
  return db.transaction().execute(async (trx) => {
    // The operations of a batch run one after another in one transaction, so each would otherwise
    // hold its locks while the next takes more, in an order no other transaction knows: lock
    // everything the batch touches first, in the global order.
    const { accounts } = await lockInOrder(trx, operations, { lockAccountRows: true });
    const results: BatchResult[] = [];
    for (let i = 0; i < operations.length; i++) {
      await sql`savepoint op`.execute(trx);
      try {
        results.push({ ok: true, transfers: await applyOperation(trx, operations[i]!) });
        await sql`release savepoint op`.execute(trx);
      } catch (error) {
        await sql`rollback to savepoint op`.execute(trx);
        if (!(error instanceof AppError)) throw error;
        results.push({ ok: false, error });
      }
    }
    // Accounts were created up front for every operation; those only refused operations named
    // are removed again, so that a refused operation leaves nothing behind.
    const created = [...accounts.values()].filter((a) => a.created).map((a) => a.id);
    if (created.length > 0) {
      await sql`delete from ledger_accounts a
                 where a.id in (${sql.join(created)})
                   and not exists (select 1 from ledger_transfers t where t.debit_account_id = a.id or t.credit_account_id = a.id)`.execute(
        trx,
      );
    }
    return results;
  });
}

/**
 * Takes the locks `operations` need in the global order (see the top of this file): creates the
 * ledger accounts they name in code order (creating a row holds it until commit, and an insert
 * that meets a row being created or updated by another transaction waits for it), then locks the
 * pending transfers they resolve in id order, then, when asked, every account row in id order.
 */
async function lockInOrder(
  trx: Trx,
  operations: readonly Operation[],
  options: { lockAccountRows: boolean },
): Promise<{ accounts: EnsuredAccounts }> {
  const keys = new Map<string, LedgerAccountKey>();
  const pendingIds = new Set<bigint>();
  for (const operation of operations) {
    for (const input of operation.transfers) {
      if ('pendingTransferId' in input) {
        pendingIds.add(input.pendingTransferId);
      } else {
        keys.set(specOf(input.debit).code, input.debit);
        keys.set(specOf(input.credit).code, input.credit);
      }
    }
  }
  const accounts = await ensureAccounts(trx, [...keys.values()]);
  const accountIds = new Set([...accounts.values()].map((a) => a.id));
  // One pending resolution locks its row where it is read; several are locked here, in id order.
  if (pendingIds.size > 1 || (pendingIds.size > 0 && options.lockAccountRows)) {
    const pendings = await trx
      .selectFrom('ledger_transfers')
      .select(['id', 'debit_account_id', 'credit_account_id'])
      .where(
        'id',
        'in',
        [...pendingIds].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
      )
      .orderBy('id')
      .forUpdate()
      .execute();
    for (const p of pendings) accountIds.add(p.debit_account_id).add(p.credit_account_id);
  }
  if (options.lockAccountRows && accountIds.size > 0) {
    await trx
      .selectFrom('ledger_accounts')
      .select('id')
      .where(
        'id',
        'in',
        [...accountIds].sort((a, b) => a - b),
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
