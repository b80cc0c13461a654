// SQL for fiat transfers. Status changes are conditional on the status they leave, so that two
// workers recording the same processor answer cannot both apply it.
import { sql, type RawBuilder, type Selectable } from 'kysely';
import { leaseDueRows } from '../db/lease.js';
import type { Db } from '../db/database.js';
import type { FiatTransfersTable } from '../db/schema.js';
import type { Trx } from '../db/transaction.js';
import type { FiatCurrency } from '../money/assets.js';
import { limitVolumeOf, type FiatTransfer, type FiatTransferStatus } from './fiat-transfer.js';
import { giveVolumeBack } from '../compliance/limits/limits-repository.js';

type Row = Omit<Selectable<FiatTransfersTable>, 'locked_until' | 'check_at'>;

/** The columns a transfer is read from (toTransfer). */
export const TRANSFER_COLUMNS = [
  'id',
  'sender_account_id',
  'recipient_account_id',
  'currency',
  'amount',
  'fee',
  'payment_method',
  'status',
  'note',
  'instrument_ref',
  'processor_ref',
  'failure_code',
  'idempotency_key',
  'created_at',
  'settles_at',
  'completed_at',
] as const;

export function toTransfer(row: Row): FiatTransfer {
  return {
    id: row.id,
    senderAccountId: row.sender_account_id,
    recipientAccountId: row.recipient_account_id,
    currency: row.currency as FiatCurrency,
    amountMinor: row.amount,
    feeMinor: row.fee,
    paymentMethod: row.payment_method,
    status: row.status,
    note: row.note,
    instrumentRef: row.instrument_ref,
    processorRef: row.processor_ref,
    failureCode: row.failure_code,
    idempotencyKey: row.idempotency_key,
    createdAt: row.created_at,
    settlesAt: row.settles_at,
    completedAt: row.completed_at,
  };
}

/** Inserts the intent; returns null when the sender already has a transfer under this idempotency key. */
export async function insertTransferIntent(db: Db | Trx, t: FiatTransfer): Promise<FiatTransfer | null> {
  const row = await db
    .insertInto('fiat_transfers')
    .values({
      id: t.id,
      sender_account_id: t.senderAccountId,
      recipient_account_id: t.recipientAccountId,
      currency: t.currency,
      amount: t.amountMinor,
      fee: t.feeMinor,
      payment_method: t.paymentMethod,
      status: t.status,
      note: t.note,
      instrument_ref: t.instrumentRef,
      idempotency_key: t.idempotencyKey,
      created_at: t.createdAt,
    })
    .onConflict((oc) => oc.columns(['sender_account_id', 'idempotency_key']).doNothing())
    .returning(TRANSFER_COLUMNS)
    .executeTakeFirst();
  return row ? toTransfer(row) : null;
}

/**
 * The insert of new transfers as a WITH clause `name` of a group commit's statement, returning the
 * id of each inserted; one whose key is taken is left out (the caller counts them). Each column is
 * one array parameter. Intents (transfer-intent-batch.ts) are inserted processing; the sandbox's
 * card sends (card-send-batch.ts) completed, with their charge and completion time.
 */
export function newTransfersClause(name: 'intents_added' | 'card_sends_added', transfers: readonly FiatTransfer[]): RawBuilder<unknown> {
  const column = <T>(of: (t: FiatTransfer) => T): T[] => transfers.map(of);
  return sql`${sql.id(name)} as (
      insert into fiat_transfers (id, sender_account_id, recipient_account_id, currency, amount, fee, payment_method, status, note,
                                  instrument_ref, idempotency_key, created_at, processor_ref, completed_at)
      select * from unnest(${column((t) => t.id)}::text[], ${column((t) => t.senderAccountId)}::integer[],
                           ${column((t) => t.recipientAccountId)}::integer[], ${column((t) => t.currency)}::text[],
                           ${column((t) => String(t.amountMinor))}::bigint[], ${column((t) => String(t.feeMinor))}::bigint[],
                           ${column((t) => t.paymentMethod)}::text[], ${column((t) => t.status)}::text[], ${column((t) => t.note)}::text[],
                           ${column((t) => t.instrumentRef)}::text[], ${column((t) => t.idempotencyKey)}::text[],
                           ${column((t) => t.createdAt.toISOString())}::timestamptz[], ${column((t) => t.processorRef)}::text[],
                           ${column((t) => t.completedAt?.toISOString() ?? null)}::timestamptz[])
      on conflict (sender_account_id, idempotency_key) do nothing
      returning id
    )`;
}

/** Locks the transfer's row for this transaction (a webhook and a request may record the same answer). */
export async function lockTransfer(trx: Trx, id: string): Promise<FiatTransfer | undefined> {
  const row = await trx.selectFrom('fiat_transfers').select(TRANSFER_COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
  return row ? toTransfer(row) : undefined;
}

export async function findTransfer(db: Db | Trx, id: string): Promise<FiatTransfer | undefined> {
  const row = await db.selectFrom('fiat_transfers').select(TRANSFER_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toTransfer(row) : undefined;
}

export async function findTransferByIdempotencyKey(db: Db, senderAccountId: number, key: string): Promise<FiatTransfer | undefined> {
  const row = await db
    .selectFrom('fiat_transfers')
    .select(TRANSFER_COLUMNS)
    .where('sender_account_id', '=', senderAccountId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  return row ? toTransfer(row) : undefined;
}

export interface StatusChange {
  id: string;
  from: FiatTransferStatus;
  to: FiatTransferStatus;
  processorRef?: string;
  failureCode?: string | null;
  settlesAt?: Date | null;
  /** When the settlement job next asks the processor about a pending debit. */
  checkAt?: Date | null;
  completedAt?: Date | null;
}

/**
 * Moves the transfer from `from` to `to`; null when it was not in `from` (someone else moved it).
 * Every path that fails a transfer passes here: a failed transfer gives its volume back to the
 * sender's limits (decision 0036), once, in the transaction of the change.
 */
export async function changeStatus(trx: Trx, change: StatusChange): Promise<FiatTransfer | null> {
  const row = await trx
    .updateTable('fiat_transfers')
    .set({
      status: change.to,
      locked_until: null,
      ...(change.processorRef !== undefined ? { processor_ref: change.processorRef } : {}),
      ...(change.failureCode !== undefined ? { failure_code: change.failureCode } : {}),
      ...(change.settlesAt !== undefined ? { settles_at: change.settlesAt } : {}),
      ...(change.checkAt !== undefined ? { check_at: change.checkAt } : {}),
      ...(change.completedAt !== undefined ? { completed_at: change.completedAt } : {}),
    })
    .where('id', '=', change.id)
    .where('status', '=', change.from)
    .returning(TRANSFER_COLUMNS)
    .executeTakeFirst();
  if (!row) return null;
  const changed = toTransfer(row);
  if (change.to === 'failed' && change.from !== 'failed') await giveVolumeBack(trx, limitVolumeOf(changed));
  return changed;
}

/** A still-pending bank debit: look again at `checkAt`, and release the lease. */
export async function postponeSettlement(db: Db, input: { id: string; checkAt: Date }): Promise<void> {
  await db
    .updateTable('fiat_transfers')
    .set({ check_at: input.checkAt, locked_until: null })
    .where('id', '=', input.id)
    .where('status', '=', 'pending')
    .execute();
}

/** Claims up to `limit` transfers in `status` that are due (`dueColumn` at or before `dueBy`) for a job; see db/lease.ts. */
export async function claimTransfers(
  db: Db,
  input: { status: 'pending' | 'processing'; dueColumn: 'check_at' | 'created_at'; dueBy: Date; now: Date; leaseMs: number; limit: number },
): Promise<FiatTransfer[]> {
  const ids = await leaseDueRows(db, {
    table: 'fiat_transfers',
    due: sql`status = ${input.status} and ${sql.ref(input.dueColumn)} <= ${input.dueBy}`,
    orderBy: input.dueColumn,
    now: input.now,
    leaseMs: input.leaseMs,
    limit: input.limit,
  });
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('fiat_transfers').select(TRANSFER_COLUMNS).where('id', 'in', ids).orderBy(input.dueColumn).execute();
  return rows.map(toTransfer);
}

/**
 * Serialises one sender's fiat movements (a new transfer, or a payout: limit check, then insert) on
 * the sender's account row.
 * FOR NO KEY UPDATE, not FOR UPDATE: the insert that follows takes a key-share lock on the
 * recipient's row (its foreign key), and FOR UPDATE conflicts with key-share, so two people paying
 * each other at once deadlocked. NO KEY UPDATE still excludes the same sender's other transfers.
 */
export async function lockSender(trx: Trx, senderAccountId: number): Promise<void> {
  await trx.selectFrom('accounts').select('id').where('id', '=', senderAccountId).forNoKeyUpdate().execute();
}

/** Locks the transfer the processor knows by this charge (its PaymentIntent), if any. */
export async function lockTransferByProcessorRef(trx: Trx, processorRef: string): Promise<FiatTransfer | undefined> {
  const row = await trx
    .selectFrom('fiat_transfers')
    .select(TRANSFER_COLUMNS)
    .where('processor_ref', '=', processorRef)
    .forUpdate()
    .executeTakeFirst();
  return row ? toTransfer(row) : undefined;
}
