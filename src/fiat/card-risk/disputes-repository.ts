// SQL for disputes (chargebacks) of card transfers (DESIGN §16): one row per processor dispute.
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { DisputesTable } from '../../db/schema.js';
import type { Trx } from '../../db/transaction.js';
import type { FiatCurrency } from '../../money/assets.js';

export interface Dispute {
  id: string;
  processorRef: string;
  transferId: string;
  senderAccountId: number;
  recipientAccountId: number;
  currency: FiatCurrency;
  /** What the cardholder disputes (the charge's amount, fee included, or part of it). */
  amountMinor: bigint;
  /** What the recipient gave back. */
  takenMinor: bigint;
  /** What the platform gave back of its fee. */
  feeTakenMinor: bigint;
  /** The processor's dispute fee, booked to losses. */
  disputeFeeMinor: bigint;
  reason: string;
  status: 'open' | 'won' | 'lost';
  openedAt: Date;
  closedAt: Date | null;
}

function toDispute(row: Selectable<DisputesTable>): Dispute {
  return {
    id: row.id,
    processorRef: row.processor_ref,
    transferId: row.transfer_id,
    senderAccountId: row.sender_account_id,
    recipientAccountId: row.recipient_account_id,
    currency: row.currency as FiatCurrency,
    amountMinor: row.amount,
    takenMinor: row.taken,
    feeTakenMinor: row.fee_taken,
    disputeFeeMinor: row.dispute_fee,
    reason: row.reason,
    status: row.status,
    openedAt: row.opened_at,
    closedAt: row.closed_at,
  };
}

export async function lockDispute(trx: Trx, processorRef: string): Promise<Dispute | undefined> {
  const row = await trx.selectFrom('disputes').selectAll().where('processor_ref', '=', processorRef).forUpdate().executeTakeFirst();
  return row && toDispute(row);
}

export async function insertDispute(trx: Trx, d: Dispute): Promise<void> {
  await trx
    .insertInto('disputes')
    .values({
      id: d.id,
      processor_ref: d.processorRef,
      transfer_id: d.transferId,
      sender_account_id: d.senderAccountId,
      recipient_account_id: d.recipientAccountId,
      currency: d.currency,
      amount: d.amountMinor,
      taken: d.takenMinor,
      fee_taken: d.feeTakenMinor,
      dispute_fee: d.disputeFeeMinor,
      reason: d.reason,
      status: d.status,
      opened_at: d.openedAt,
      closed_at: d.closedAt,
    })
    .execute();
}

export async function updateDispute(
  trx: Trx,
  input: { id: string; status?: Dispute['status']; closedAt?: Date; disputeFeeMinor?: bigint },
): Promise<Dispute> {
  const row = await trx
    .updateTable('disputes')
    .set({
      ...(input.status ? { status: input.status } : {}),
      ...(input.closedAt ? { closed_at: input.closedAt } : {}),
      ...(input.disputeFeeMinor !== undefined ? { dispute_fee: input.disputeFeeMinor } : {}),
    })
    .where('id', '=', input.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toDispute(row);
}

export async function listDisputes(db: Db, input: { status?: Dispute['status'] | undefined; limit: number }): Promise<Dispute[]> {
  let query = db.selectFrom('disputes').selectAll();
  if (input.status) query = query.where('status', '=', input.status);
  const rows = await query.orderBy('opened_at', 'desc').orderBy('id', 'desc').limit(input.limit).execute();
  return rows.map(toDispute);
}
