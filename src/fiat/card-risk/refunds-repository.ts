// SQL for refunds of fiat transfers (DESIGN §16).
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { RefundsTable } from '../../db/schema.js';
import type { Trx } from '../../db/transaction.js';
import type { FiatCurrency } from '../../money/assets.js';

export interface Refund {
  id: string;
  transferId: string;
  origin: 'operator' | 'processor';
  processorRef: string | null;
  currency: FiatCurrency;
  /** What the recipient gave back. */
  amountMinor: bigint;
  /** What the platform gave back of its fee. */
  feeMinor: bigint;
  status: 'pending' | 'succeeded' | 'failed';
  reason: string;
  note: string | null;
  idempotencyKey: string | null;
  requestHash: string | null;
  undoneAt: Date | null;
  createdAt: Date;
}

function toRefund(row: Selectable<RefundsTable>): Refund {
  return {
    id: row.id,
    transferId: row.transfer_id,
    origin: row.origin,
    processorRef: row.processor_ref,
    currency: row.currency as FiatCurrency,
    amountMinor: row.amount,
    feeMinor: row.fee,
    status: row.status,
    reason: row.reason,
    note: row.note,
    idempotencyKey: row.idempotency_key,
    requestHash: row.request_hash,
    undoneAt: row.undone_at,
    createdAt: row.created_at,
  };
}

/** Inserts a refund; false when its processor ref or idempotency key is already recorded. */
export async function insertRefund(trx: Trx, refund: Refund): Promise<boolean> {
  const row = await trx
    .insertInto('refunds')
    .values({
      id: refund.id,
      transfer_id: refund.transferId,
      origin: refund.origin,
      processor_ref: refund.processorRef,
      currency: refund.currency,
      amount: refund.amountMinor,
      fee: refund.feeMinor,
      status: refund.status,
      reason: refund.reason,
      note: refund.note,
      idempotency_key: refund.idempotencyKey,
      request_hash: refund.requestHash,
      created_at: refund.createdAt,
      updated_at: refund.createdAt,
    })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The refund with this id, processor ref or idempotency key, locked for this transaction. */
export async function lockRefund(
  trx: Trx,
  by: { id?: string | null; processorRef?: string | null; idempotencyKey?: string | null },
): Promise<Refund | undefined> {
  const row = await trx
    .selectFrom('refunds')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('id', '=', by.id ?? ''),
        eb('processor_ref', '=', by.processorRef ?? ''),
        eb('idempotency_key', '=', by.idempotencyKey ?? ''),
      ]),
    )
    .forUpdate()
    .executeTakeFirst();
  return row && toRefund(row);
}

export async function findRefundByKey(db: Db, idempotencyKey: string): Promise<Refund | undefined> {
  const row = await db.selectFrom('refunds').selectAll().where('idempotency_key', '=', idempotencyKey).executeTakeFirst();
  return row && toRefund(row);
}

/** Records where a refund stands; the row was locked by lockRefund. */
export async function updateRefund(
  trx: Trx,
  input: { id: string; status: Refund['status']; processorRef?: string | null; undoneAt?: Date; now: Date },
): Promise<Refund> {
  const row = await trx
    .updateTable('refunds')
    .set({
      status: input.status,
      updated_at: input.now,
      ...(input.processorRef ? { processor_ref: input.processorRef } : {}),
      ...(input.undoneAt ? { undone_at: input.undoneAt } : {}),
    })
    .where('id', '=', input.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRefund(row);
}

/** What refunds and disputes have taken of a transfer so far (failed refunds and won disputes left out). */
export async function takenOfTransfer(trx: Trx, transferId: string): Promise<{ amountMinor: bigint; feeMinor: bigint }> {
  const result = await sql<{ amount: string; fee: string }>`
    select coalesce(sum(amount), 0)::text as amount, coalesce(sum(fee), 0)::text as fee from (
      select amount, fee from refunds where transfer_id = ${transferId} and status <> 'failed'
      union all
      select taken, fee_taken from disputes where transfer_id = ${transferId} and status <> 'won'
    ) taken`.execute(trx);
  const row = result.rows[0]!;
  return { amountMinor: BigInt(row.amount), feeMinor: BigInt(row.fee) };
}

export async function listRefunds(db: Db, input: { limit: number }): Promise<Refund[]> {
  const rows = await db.selectFrom('refunds').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(input.limit).execute();
  return rows.map(toRefund);
}

/** Refunds still `pending` that were made before `createdBefore`, oldest first: the reconciliation's work. */
export async function listPendingRefunds(db: Db, input: { createdBefore: Date; limit: number }): Promise<Refund[]> {
  const rows = await db
    .selectFrom('refunds')
    .selectAll()
    .where('status', '=', 'pending')
    .where('created_at', '<', input.createdBefore)
    .orderBy('created_at')
    .orderBy('id')
    .limit(input.limit)
    .execute();
  return rows.map(toRefund);
}
