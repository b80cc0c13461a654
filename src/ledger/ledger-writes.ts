// The statements an operation's writes are made of, shared by one operation in its own
// transaction (ledger.ts) and by the operations of a group commit (ledger-batch.ts): finding or
// creating accounts, locking and reading account rows, checking that the changes fit, and moving
// the balances with the transfer rows in one statement.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import type { Asset } from '../money/assets.js';
import { assert } from '../platform/errors.js';
import { specOf, type LedgerAccountKey } from './ledger-accounts.js';
import type { Trx } from '../db/transaction.js';

/** A transfer as the ledger wrote it. */
export interface AppliedTransfer {
  id: bigint;
  kind: 'posted' | 'pending' | 'post_pending' | 'void_pending';
  debitAccountId: number;
  creditAccountId: number;
  asset: string;
  amountMinor: bigint;
  pendingTransferId: bigint | null;
}

export interface Delta {
  balance: bigint;
  pendingDebits: bigint;
  pendingCredits: bigint;
}

export interface ResolvedTransfer {
  kind: AppliedTransfer['kind'];
  debitId: number;
  creditId: number;
  asset: string;
  amount: bigint;
  pendingTransferId: bigint | null;
  code: string;
}

/** A posted or pending transfer between two ensured accounts, as the writes take it. */
export function resolvedBetween(
  debit: { id: number; asset: Asset } | undefined,
  credit: { id: number; asset: Asset } | undefined,
  input: { readonly type: 'posted' | 'pending'; readonly amountMinor: bigint; readonly code: string },
): ResolvedTransfer {
  assert(debit && credit, 'the accounts of a transfer exist');
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

/** A transfer row to write, with the operation it belongs to. */
export interface RecordedTransfer {
  operationId: string;
  transfer: ResolvedTransfer;
}

/** What the transfers of one operation change on each account they name. */
export function deltasOf(resolved: readonly ResolvedTransfer[]): Map<number, Delta> {
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
  return deltas;
}

export interface LockedAccount {
  id: number;
  balance: bigint;
  pending_debits: bigint;
  pending_credits: bigint;
  allow_negative: boolean;
}

/**
 * Locks the account rows in id order, in a statement of its own (the global lock order), and
 * reads them: until this transaction ends, nobody else can change what the check below sees. The
 * ids are one array parameter, so the text is the same however many there are (decision 0049).
 */
export async function lockAccountRows(trx: Trx, accountIds: readonly number[]): Promise<Map<number, LockedAccount>> {
  const ids = [...accountIds].sort((a, b) => a - b);
  const result = await sql<LockedAccount>`
    select id, balance, pending_debits, pending_credits, allow_negative
      from ledger_accounts
     where id = any(${ids}::integer[])
     order by id
       for no key update`.execute(trx);
  assert(result.rows.length === ids.length, 'every account of the operation is locked');
  return new Map(result.rows.map((row) => [row.id, row]));
}

/** True when, after the deltas, no account that may not go negative is below zero. */
export function fitsEveryAccount(locked: ReadonlyMap<number, LockedAccount>, deltas: ReadonlyMap<number, Delta>): boolean {
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
 * Rows another feature writes in the same statement as the ledger's (a group commit's records and
 * events): data-modifying WITH clauses, each named, and how many rows each named one must return.
 * A clause that returns another count (a record whose key was taken meanwhile) fails the whole
 * statement, and with it the transaction.
 */
export interface Alongside {
  readonly clauses: readonly RawBuilder<unknown>[];
  readonly expectedRows: ReadonlyMap<string, number>;
}

/** One named clause whose rows the statement counts (a limit's volume, a feature's records). */
export interface CountedClause {
  readonly clause: RawBuilder<unknown>;
  readonly name: string;
  readonly rows: number;
}

/** `alongside` with one more counted clause; unchanged for none (nothing to write). */
export function withCounted(alongside: Alongside, counted: CountedClause | null): Alongside {
  if (!counted) return alongside;
  return {
    clauses: [...alongside.clauses, counted.clause],
    expectedRows: new Map([...alongside.expectedRows, [counted.name, counted.rows]]),
  };
}

/** The statement wrote fewer (or more) rows alongside the ledger's than its caller expected. */
export class AlongsideMismatch extends Error {
  constructor(
    /** The clause whose count differed. */
    readonly clause: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The balance changes and the transfer rows of one operation in one statement (one round trip),
 * on rows already locked and checked. The update keeps its no-overdraft condition as a second
 * guard: a row it leaves out is a bug, and fails the operation. The transfers come back in the
 * order given.
 */
export async function moveAndRecord(
  trx: Trx,
  deltas: ReadonlyMap<number, Delta>,
  recorded: readonly RecordedTransfer[],
): Promise<AppliedTransfer[]> {
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
    with ${movesClauses(deltas, recorded, sql`id, kind, debit_account_id, credit_account_id, asset, amount, pending_transfer_id`)}
    select r.*, ${movesChecks}
      from recorded r
     order by r.id`.execute(trx);
  const first = result.rows[0];
  assert(first && result.rows.length === recorded.length, 'every transfer of the operation is recorded');
  assertMoved(first, deltas);
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

/**
 * A batch's balance changes and transfer rows as moveAndRecord writes them, and the rows
 * `alongside` names, in one statement that answers counts only (nobody reads a batch's ledger rows
 * back).
 */
export async function moveAndRecordBatch(
  trx: Trx,
  deltas: ReadonlyMap<number, Delta>,
  recorded: readonly RecordedTransfer[],
  alongside: Alongside = { clauses: [], expectedRows: new Map() },
): Promise<void> {
  const counted = [...alongside.expectedRows.keys()];
  const result = await sql<{ recorded: bigint; moved: bigint; broken: bigint } & Record<string, unknown>>`
    with ${sql.join([...alongside.clauses, movesClauses(deltas, recorded, sql`id`)], sql`, `)}
    select count(*) as recorded,
           ${sql.join([...counted.map((name, i) => sql`(select count(*) from ${sql.id(name)}) as ${sql.id(`alongside_${i}`)}`), sql``], sql`, `)}
           ${movesChecks}
      from recorded`.execute(trx);
  const counts = result.rows[0];
  assert(counts && Number(counts.recorded) === recorded.length, 'every transfer of the batch is recorded');
  assertMoved(counts, deltas);
  counted.forEach((name, i) => {
    const rows = Number(counts[`alongside_${i}`]);
    if (rows !== alongside.expectedRows.get(name))
      throw new AlongsideMismatch(name, `${name}: ${rows} rows, not ${alongside.expectedRows.get(name)}`);
  });
}

/** The WITH clauses `moved` (the balance changes) and `recorded` (the transfer rows, returning `returning`). */
function movesClauses(
  deltas: ReadonlyMap<number, Delta>,
  recorded: readonly RecordedTransfer[],
  returning: RawBuilder<unknown>,
): RawBuilder<unknown> {
  const ids = [...deltas.keys()].sort((a, b) => a - b);
  const changes = ids.map((id) => deltas.get(id)!);
  const rows = recorded.map((r) => r.transfer);
  // Every value goes in as an array parameter, expanded by unnest: the statement's text is the same
  // whatever the number of accounts and rows, so PostgreSQL parses and plans a statement of fixed
  // size, not one that grows with the batch (decision 0049). Rows are inserted in the order given
  // (an INSERT ... SELECT ... ORDER BY takes ids from the sequence in that order). The update names
  // its accounts twice, joined to the changes and as `id = any(...)`: the generic plan cannot know
  // how many rows unnest gives, and on a ledger of a few thousand accounts it hashed all of them
  // (a sequential scan into a hash join) at every batch, work that grew with the ledger up to the
  // size where the planner turns to the primary key. With the array the plan keeps only the batch's
  // accounts before the join (PGlite finds them in the primary key, PostgreSQL 15 filters its scan
  // of a small ledger). At 2,000 accounts the whole statement's time did not measurably change
  // (decision 0074); the array is there so that the plan does not depend on the ledger's size.
  return sql`moved as (
      update ledger_accounts a
         set balance = a.balance + d.balance,
             pending_debits = a.pending_debits + d.pending_debits,
             pending_credits = a.pending_credits + d.pending_credits
        from unnest(${ids}::integer[], ${changes.map((d) => String(d.balance))}::bigint[],
                    ${changes.map((d) => String(d.pendingDebits))}::bigint[], ${changes.map((d) => String(d.pendingCredits))}::bigint[])
          as d(id, balance, pending_debits, pending_credits)
       where a.id = d.id
         and a.id = any(${ids}::integer[])
         and (a.allow_negative or a.balance + d.balance - (a.pending_debits + d.pending_debits) >= 0)
      returning a.balance, a.pending_debits, a.pending_credits, a.allow_negative
    ), recorded as (
      insert into ledger_transfers (operation_id, kind, debit_account_id, credit_account_id, asset, amount, pending_transfer_id, code)
      select operation_id, kind, debit_account_id, credit_account_id, asset, amount, pending_transfer_id, code
        from unnest(${recorded.map((r) => r.operationId)}::text[], ${rows.map((t) => t.kind)}::text[],
                    ${rows.map((t) => t.debitId)}::integer[], ${rows.map((t) => t.creditId)}::integer[],
                    ${rows.map((t) => t.asset)}::text[], ${rows.map((t) => String(t.amount))}::bigint[],
                    ${rows.map((t) => (t.pendingTransferId === null ? null : String(t.pendingTransferId)))}::bigint[],
                    ${rows.map((t) => t.code)}::text[]) with ordinality
          as r(operation_id, kind, debit_account_id, credit_account_id, asset, amount, pending_transfer_id, code, ordinal)
       order by ordinal
      returning ${returning}
    )`;
}

/** What the statement checks after writing: how many account rows moved, and how many of them break an invariant. */
const movesChecks = sql`(select count(*) from moved) as moved,
           (select count(*) from moved m
             where not (m.allow_negative or m.balance - m.pending_debits >= 0) or m.pending_debits < 0 or m.pending_credits < 0) as broken`;

function assertMoved(checks: { moved: bigint; broken: bigint }, deltas: ReadonlyMap<number, Delta>): void {
  // After writing: every locked and checked row moved, and the invariants the database was asked to keep do hold.
  assert(Number(checks.moved) === deltas.size, 'every account of the operation moved');
  assert(Number(checks.broken) === 0, 'user accounts not below zero and pending amounts not negative');
}

export type EnsuredAccounts = ReadonlyMap<string, { id: number; asset: Asset; created: boolean }>;

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
