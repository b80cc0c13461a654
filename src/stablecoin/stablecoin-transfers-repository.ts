// SQL for stablecoin transfer records.
import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { StablecoinTransfersTable } from '../db/schema.js';
import type { Trx } from '../db/transaction.js';
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

/**
 * Inserts the records in one statement; returns the ids of those inserted (a record whose sender
 * already has a transfer under its idempotency key, or an earlier record of the same list does, is not).
 */
export async function insertTransfers(trx: Trx, transfers: readonly StablecoinTransfer[]): Promise<Set<string>> {
  if (transfers.length === 0) return new Set();
  const result = await sql<{ id: string }>`${insertTransfersQuery(transfers)}`.execute(trx);
  return new Set(result.rows.map((row) => row.id));
}

/** The same insert as a WITH clause of a larger statement (a group commit's), named `transfer_records`, returning the ids inserted. */
export function transferRecordsClause(transfers: readonly StablecoinTransfer[]): RawBuilder<unknown> {
  return sql`transfer_records as (${insertTransfersQuery(transfers)})`;
}

/** One text whatever the number of records: each column an array parameter (decision 0049). */
function insertTransfersQuery(transfers: readonly StablecoinTransfer[]): RawBuilder<{ id: string }> {
  const column = <T>(of: (t: StablecoinTransfer) => T): T[] => transfers.map(of);
  return sql`insert into stablecoin_transfers (id, sender_account_id, recipient_account_id, currency, amount, fee, status, idempotency_key, created_at)
    select * from unnest(${column((t) => t.id)}::text[], ${column((t) => t.senderAccountId)}::integer[],
                         ${column((t) => t.recipientAccountId)}::integer[], ${column((t) => t.currency)}::text[],
                         ${column((t) => String(t.amountMinor))}::bigint[], ${column((t) => String(t.feeMinor))}::bigint[],
                         ${column((t) => t.status)}::text[], ${column((t) => t.idempotencyKey)}::text[],
                         ${column((t) => t.createdAt.toISOString())}::timestamptz[])
    on conflict (sender_account_id, idempotency_key) do nothing
    returning id`;
}

/** Removes records written earlier in the same transaction (members of a batch refused after their insert). */
export async function deleteTransfers(trx: Trx, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await trx.deleteFrom('stablecoin_transfers').where('id', 'in', ids).execute();
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
