// SQL for stablecoin transfer records.
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { StablecoinTransfersTable } from '../db/schema.js';
import type { Trx } from '../ledger/ledger.js';
import type { StablecoinTransfer } from './stablecoin-transfer.js';

const COLUMNS = [
  'id',
  'sender_account_id',
  'recipient_account_id',
  'currency',
  'amount',
  'fee',
  'status',
  'idempotency_key',
  'created_at',
] as const;

function toTransfer(row: Selectable<StablecoinTransfersTable>): StablecoinTransfer {
  return {
    id: row.id,
    senderAccountId: row.sender_account_id,
    recipientAccountId: row.recipient_account_id,
    currency: row.currency,
    amountMinor: row.amount,
    feeMinor: row.fee,
    status: row.status,
    idempotencyKey: row.idempotency_key,
    createdAt: row.created_at,
  };
}

/** Inserts the record; null when the sender already has a transfer under this idempotency key. */
export async function insertTransfer(trx: Trx, t: StablecoinTransfer): Promise<StablecoinTransfer | null> {
  const row = await trx
    .insertInto('stablecoin_transfers')
    .values({
      id: t.id,
      sender_account_id: t.senderAccountId,
      recipient_account_id: t.recipientAccountId,
      currency: t.currency,
      amount: t.amountMinor,
      fee: t.feeMinor,
      status: t.status,
      idempotency_key: t.idempotencyKey,
      created_at: t.createdAt,
    })
    .onConflict((oc) => oc.columns(['sender_account_id', 'idempotency_key']).doNothing())
    .returning(COLUMNS)
    .executeTakeFirst();
  return row ? toTransfer(row) : null;
}

export async function findTransferByIdempotencyKey(db: Db, senderAccountId: number, key: string): Promise<StablecoinTransfer | undefined> {
  const row = await db
    .selectFrom('stablecoin_transfers')
    .select(COLUMNS)
    .where('sender_account_id', '=', senderAccountId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  return row ? toTransfer(row) : undefined;
}
