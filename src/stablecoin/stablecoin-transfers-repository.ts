// SQL for stablecoin transfer records.
import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { StablecoinTransfersTable } from '../db/schema.js';
import type { Trx } from '../db/transaction.js';
import type { StablecoinTransfer } from './stablecoin-transfer.js';
import { insertAnswers, type AnswerInTransaction } from '../platform/idempotency-in-transaction.js';

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

/** What the careful insert did: the records inserted, and of those the ones whose key record went in with them. */
export interface InsertedTransfers {
  readonly inserted: ReadonlySet<string>;
  readonly answered: ReadonlySet<string>;
}

/**
 * Inserts the records in one statement, each with the key record (its claim and answer at once)
 * `answers` gives for its id, and says what went in. A record whose sender already has a transfer
 * under its idempotency key (or an earlier record of the same list does) is not inserted, nor is
 * its key record; a key record whose key is there already (another request's) is not inserted
 * either, though its transfer record is.
 */
export async function insertTransfers(
  trx: Trx,
  transfers: readonly StablecoinTransfer[],
  answers: ReadonlyMap<string, AnswerInTransaction> = new Map(),
): Promise<InsertedTransfers> {
  if (transfers.length === 0) return { inserted: new Set(), answered: new Set() };
  const keyed = transfers.flatMap((t) => {
    const answer = answers.get(t.id);
    return answer ? [{ id: t.id, ...answer }] : [];
  });
  const result = await sql<{ id: string; answered: boolean }>`
    with ${transferRecordsClause(transfers)},
    key_answers as (${insertAnswers(sql`(
        select r.sender_account_id as account_id, r.idempotency_key as key, x.request_hash, x.status, x.body
          from unnest(${keyed.map((a) => a.id)}::text[], ${keyed.map((a) => a.requestHash)}::text[],
                      ${keyed.map((a) => a.status)}::integer[], ${keyed.map((a) => a.body)}::text[]) as x(id, request_hash, status, body)
          join transfer_records r on r.id = x.id) as a`)})
    select r.id, exists (select 1 from key_answers k where k.account_id = r.sender_account_id and k.key = r.idempotency_key) as answered
      from transfer_records r`.execute(trx);
  return {
    inserted: new Set(result.rows.map((row) => row.id)),
    answered: new Set(result.rows.filter((row) => row.answered).map((row) => row.id)),
  };
}

/** The same insert as a WITH clause of a larger statement (a group commit's), named `transfer_records`, returning the rows inserted. */
export function transferRecordsClause(transfers: readonly StablecoinTransfer[]): RawBuilder<unknown> {
  return sql`transfer_records as (${insertTransfersQuery(transfers)})`;
}

/** One text whatever the number of records: each column an array parameter (decision 0049). */
function insertTransfersQuery(transfers: readonly StablecoinTransfer[]): RawBuilder<unknown> {
  const column = <T>(of: (t: StablecoinTransfer) => T): T[] => transfers.map(of);
  return sql`insert into stablecoin_transfers (id, sender_account_id, recipient_account_id, currency, amount, fee, status, idempotency_key, created_at)
    select * from unnest(${column((t) => t.id)}::text[], ${column((t) => t.senderAccountId)}::integer[],
                         ${column((t) => t.recipientAccountId)}::integer[], ${column((t) => t.currency)}::text[],
                         ${column((t) => String(t.amountMinor))}::bigint[], ${column((t) => String(t.feeMinor))}::bigint[],
                         ${column((t) => t.status)}::text[], ${column((t) => t.idempotencyKey)}::text[],
                         ${column((t) => t.createdAt.toISOString())}::timestamptz[])
    on conflict (sender_account_id, idempotency_key) do nothing
    returning id, sender_account_id, idempotency_key`;
}

/**
 * Removes records written earlier in the same transaction (members of a batch refused after their
 * insert), with the key records inserted with them: a refusal keeps no answer, as DESIGN §5 says.
 */
export async function deleteTransfers(trx: Trx, transfers: readonly StablecoinTransfer[], answered: ReadonlySet<string>): Promise<void> {
  if (transfers.length === 0) return;
  const keys = transfers.filter((t) => answered.has(t.id));
  await sql`
    with gone as (delete from stablecoin_transfers where id = any(${transfers.map((t) => t.id)}::text[]))
    delete from idempotency_keys k
     using unnest(${keys.map((t) => t.senderAccountId)}::integer[], ${keys.map((t) => t.idempotencyKey)}::text[]) as a(account_id, key)
     where k.account_id = a.account_id and k.key = a.key`.execute(trx);
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
