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
import { sql, type Transaction } from 'kysely';
import type { DB } from '../db/schema.js';
import type { Db } from '../db/database.js';
import type { Asset } from '../money/assets.js';
import { AppError, assert } from '../platform/errors.js';
import { specOf, type LedgerAccountKey } from './ledger-accounts.js';

export type Trx = Transaction<DB>;

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

export interface AppliedTransfer {
  id: bigint;
  kind: 'posted' | 'pending' | 'post_pending' | 'void_pending';
  debitAccountId: number;
  creditAccountId: number;
  asset: string;
  amountMinor: bigint;
  pendingTransferId: bigint | null;
}

interface Delta {
  balance: bigint;
  pendingDebits: bigint;
  pendingCredits: bigint;
}

interface ResolvedTransfer {
  kind: AppliedTransfer['kind'];
  debitId: number;
  creditId: number;
  asset: string;
  amount: bigint;
  pendingTransferId: bigint | null;
  code: string;
}

/** Applies one operation inside `trx`. Throws AppError('insufficient_balance') and changes nothing when any user account would go below zero. */
export async function applyOperation(trx: Trx, operation: Operation): Promise<AppliedTransfer[]> {
  assert(operation.transfers.length > 0, 'an operation has at least one transfer');
  assert(operation.transfers.length <= MAX_TRANSFERS_PER_OPERATION, 'too many transfers in one operation');
  const { accounts } = await lockInOrder(trx, [operation], { lockAccountRows: false });
  const resolved: ResolvedTransfer[] = [];
  for (const input of operation.transfers) resolved.push(await resolveTransfer(trx, input, accounts));

  const deltas = new Map<number, Delta>();
  const touch = (id: number): Delta => {
    let delta = deltas.get(id);
    if (!delta) deltas.set(id, (delta = { balance: 0n, pendingDebits: 0n, pendingCredits: 0n }));
    return delta;
  };
  for (const t of resolved) {
    // Before writing: every transfer is positive, between two accounts, in one asset.
    assert(t.amount > 0n, 'transfer amount is positive');
    assert(t.debitId !== t.creditId, 'transfer moves between two accounts');
    const debit = touch(t.debitId);
    const credit = touch(t.creditId);
    if (t.kind === 'posted') {
      debit.balance -= t.amount;
      credit.balance += t.amount;
    } else if (t.kind === 'pending') {
      debit.pendingDebits += t.amount;
      credit.pendingCredits += t.amount;
    } else if (t.kind === 'post_pending') {
      debit.pendingDebits -= t.amount;
      credit.pendingCredits -= t.amount;
      debit.balance -= t.amount;
      credit.balance += t.amount;
    } else {
      debit.pendingDebits -= t.amount;
      credit.pendingCredits -= t.amount;
    }
  }

  const locked = await lockAccountRows(trx, [...deltas.keys()]);
  if (!fitsEveryAccount(locked, deltas)) {
    // Nothing was written by this operation but the accounts it created; those go too, so that the
    // refusal leaves nothing behind even when the caller goes on to commit.
    const created = [...accounts.values()].filter((a) => a.created).map((a) => a.id);
    if (created.length > 0) await trx.deleteFrom('ledger_accounts').where('id', 'in', created).execute();
    throw new AppError('insufficient_balance', 'Insufficient balance for this operation.');
  }
  return moveAndRecord(trx, operation.operationId, deltas, resolved);
}

interface LockedAccount {
  id: number;
  balance: bigint;
  pending_debits: bigint;
  pending_credits: bigint;
  allow_negative: boolean;
}

/**
 * Locks the account rows in id order, in a statement of its own (the global lock order), and
 * reads them: until this transaction ends, nobody else can change what the check below sees.
 */
async function lockAccountRows(trx: Trx, accountIds: readonly number[]): Promise<Map<number, LockedAccount>> {
  const ids = [...accountIds].sort((a, b) => a - b);
  const result = await sql<LockedAccount>`
    select id, balance, pending_debits, pending_credits, allow_negative
      from ledger_accounts
     where id in (${sql.join(ids)})
     order by id
       for no key update`.execute(trx);
  assert(result.rows.length === ids.length, 'every account of the operation is locked');
  return new Map(result.rows.map((row) => [row.id, row]));
}

/** True when, after the deltas, no account that may not go negative is below zero. */
function fitsEveryAccount(locked: ReadonlyMap<number, LockedAccount>, deltas: ReadonlyMap<number, Delta>): boolean {
  for (const [id, d] of deltas) {
    const a = locked.get(id)!;
    const pendingDebits = a.pending_debits + d.pendingDebits;
    // Pending amounts are resolved only by the transfers that created them: never below zero.
    assert(pendingDebits >= 0n && a.pending_credits + d.pendingCredits >= 0n, 'pending amounts not negative');
    if (!a.allow_negative && a.balance + d.balance - pendingDebits < 0n) return false;
  }
  return true;
}

/**
 * The balance changes and the transfer rows of one operation, in one statement (one round trip),
 * on rows already locked and checked. The update keeps its no-overdraft condition as a second
 * guard: a row it leaves out is a bug, and fails the operation as one.
 */
async function moveAndRecord(
  trx: Trx,
  operationId: string,
  deltas: ReadonlyMap<number, Delta>,
  resolved: readonly ResolvedTransfer[],
): Promise<AppliedTransfer[]> {
  const ids = [...deltas.keys()].sort((a, b) => a - b);
  const changes = ids.map((id) => {
    const d = deltas.get(id)!;
    return sql`(${id}::integer, ${d.balance}::bigint, ${d.pendingDebits}::bigint, ${d.pendingCredits}::bigint)`;
  });
  const rows = resolved.map(
    (t) =>
      sql`(${operationId}, ${t.kind}, ${t.debitId}::integer, ${t.creditId}::integer, ${t.asset}, ${t.amount}::bigint, ${t.pendingTransferId}::bigint, ${t.code})`,
  );
  const result = await sql<{
    id: bigint;
    kind: AppliedTransfer['kind'];
    debit_account_id: number;
    credit_account_id: number;
    asset: string;
    amount: bigint;
    pending_transfer_id: bigint | null;
    moved: bigint;
    broken: bigint;
  }>`
    with moved as (
      update ledger_accounts a
         set balance = a.balance + d.balance,
             pending_debits = a.pending_debits + d.pending_debits,
             pending_credits = a.pending_credits + d.pending_credits
        from (values ${sql.join(changes)}) as d(id, balance, pending_debits, pending_credits)
       where a.id = d.id
         and (a.allow_negative or a.balance + d.balance - (a.pending_debits + d.pending_debits) >= 0)
      returning a.balance, a.pending_debits, a.pending_credits, a.allow_negative
    ), recorded as (
      insert into ledger_transfers (operation_id, kind, debit_account_id, credit_account_id, asset, amount, pending_transfer_id, code)
      values ${sql.join(rows)}
      returning id, kind, debit_account_id, credit_account_id, asset, amount, pending_transfer_id
    )
    select r.*,
           (select count(*) from moved) as moved,
           (select count(*) from moved m
             where not (m.allow_negative or m.balance - m.pending_debits >= 0) or m.pending_debits < 0 or m.pending_credits < 0) as broken
      from recorded r
     order by r.id`.execute(trx);
  const first = result.rows[0];
  assert(first && result.rows.length === resolved.length, 'every transfer of the operation is recorded');
  // After writing: every locked and checked row moved, and the invariants the database was asked to keep do hold.
  assert(Number(first.moved) === ids.length, 'every account of the operation moved');
  assert(Number(first.broken) === 0, 'user accounts not below zero and pending amounts not negative');
  return result.rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    debitAccountId: r.debit_account_id,
    creditAccountId: r.credit_account_id,
    asset: r.asset,
    amountMinor: r.amount,
    pendingTransferId: r.pending_transfer_id,
  }));
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

type EnsuredAccounts = ReadonlyMap<string, { id: number; asset: Asset; created: boolean }>;

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
  const debit = accounts.get(specOf(input.debit).code);
  const credit = accounts.get(specOf(input.credit).code);
  assert(debit && credit, 'accounts of a transfer exist');
  assert(debit.asset === credit.asset, 'both sides of a transfer hold the same asset');
  return {
    kind: input.type,
    debitId: debit.id,
    creditId: credit.id,
    asset: debit.asset,
    amount: input.amountMinor,
    pendingTransferId: null,
    code: input.code,
  };
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

/**
 * Finds or creates the ledger accounts for `keys` in one statement, inserting in code order (the
 * global lock order: an insert that meets a row another transaction is creating or updating waits
 * for it). `created` tells whether this call created the account.
 */
export async function ensureAccounts(trx: Trx | Db, keys: readonly LedgerAccountKey[]): Promise<EnsuredAccounts> {
  const specs = [...new Map(keys.map((key) => [specOf(key).code, specOf(key)])).values()].sort((a, b) =>
    a.code < b.code ? -1 : a.code > b.code ? 1 : 0,
  );
  const accounts = new Map<string, { id: number; asset: Asset; created: boolean }>();
  if (specs.length === 0) return accounts;
  const codes = specs.map((s) => s.code);
  const values = specs.map((s) => sql`(${s.code}, ${s.ownerAccountId}::integer, ${s.kind}, ${s.asset}, ${s.allowNegative})`);
  // Both halves read one snapshot, in which the rows inserted by `created` are not yet visible: an
  // account is in exactly one half, unless another transaction committed it after the snapshot
  // (the insert waited for it), which the second look below finds.
  const found = await sql<{ id: number; code: string; asset: string; created: boolean }>`
    with created as (
      insert into ledger_accounts (code, owner_account_id, kind, asset, allow_negative)
      values ${sql.join(values)}
      on conflict (code) do nothing
      returning id, code, asset
    )
    select id, code, asset, true as created from created
    union all
    select id, code, asset, false as created from ledger_accounts where code in (${sql.join(codes)})`.execute(trx);
  for (const row of found.rows) accounts.set(row.code, { id: row.id, asset: row.asset as Asset, created: row.created });
  const missing = codes.filter((code) => !accounts.has(code));
  if (missing.length > 0) {
    const late = await trx.selectFrom('ledger_accounts').select(['id', 'code', 'asset']).where('code', 'in', missing).execute();
    for (const row of late) accounts.set(row.code, { id: row.id, asset: row.asset as Asset, created: false });
  }
  assert(accounts.size === codes.length, 'every ledger account of the operation exists');
  return accounts;
}
