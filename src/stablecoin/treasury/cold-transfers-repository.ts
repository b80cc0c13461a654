// SQL for cold transfers: the hot wallet's excess sent to the operator's cold address. At most one
// open transfer per token (a partial unique index), and status changes are conditional on `open`.
import { sql } from 'kysely';
import type { Address, Hash } from 'viem';
import type { Db } from '../../db/database.js';
import type { Trx } from '../../db/transaction.js';
import type { Token } from '../../money/assets.js';

export interface ColdTransfer {
  id: string;
  token: Token;
  toAddress: Address;
  amountMinor: bigint;
  status: 'open' | 'confirmed' | 'failed';
}

export async function findOpenColdTransfer(db: Db | Trx, token: Token): Promise<ColdTransfer | undefined> {
  const row = await db
    .selectFrom('cold_transfers')
    .select(['id', 'token', 'to_address', 'amount', 'status'])
    .where('token', '=', token)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return row
    ? { id: row.id, token: row.token, toAddress: row.to_address as Address, amountMinor: row.amount, status: row.status }
    : undefined;
}

/** Records an open transfer; null when one is open for the token already (another round or process). */
export async function insertOpenColdTransfer(
  db: Db,
  input: { id: string; token: Token; toAddress: Address; amountMinor: bigint; at: Date },
): Promise<ColdTransfer | null> {
  const row = await sql<{ id: string }>`
    insert into cold_transfers (id, token, to_address, amount, status, created_at)
    values (${input.id}, ${input.token}, ${input.toAddress}, ${input.amountMinor}, 'open', ${input.at})
    on conflict (token) where status = 'open' do nothing
    returning id`.execute(db);
  return row.rows.length === 0
    ? null
    : { id: input.id, token: input.token, toAddress: input.toAddress, amountMinor: input.amountMinor, status: 'open' };
}

export async function lockOpenColdTransfer(trx: Trx, id: string): Promise<boolean> {
  const row = await trx
    .selectFrom('cold_transfers')
    .select('id')
    .where('id', '=', id)
    .where('status', '=', 'open')
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

export async function finishColdTransfer(
  db: Db | Trx,
  input: { id: string; status: 'confirmed' | 'failed'; txHash: Hash | null; failure: string | null; at: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('cold_transfers')
    .set({ status: input.status, tx_hash: input.txHash, failure: input.failure, finished_at: input.at })
    .where('id', '=', input.id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Whether withdrawals of `token` wait for the hot wallet: they come before any cold transfer. */
export async function withdrawalsWaitFor(db: Db | Trx, token: Token): Promise<boolean> {
  const row = await db
    .selectFrom('withdrawals')
    .select('id')
    .where('status', '=', 'pending')
    .where('waiting_since', 'is not', null)
    .where('currency', '=', token)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Tokens the custody check's scan found sent from the cold addresses back to the hot wallet or a
 * deposit address (table cold_outflows; addresses are stored checksummed on both sides).
 */
export async function coldReturnedMinor(db: Db, input: { token: Token; hotWallet: string }): Promise<bigint> {
  const { rows } = await sql<{ total: string }>`
    select coalesce(sum(o.amount), 0)::text as total from cold_outflows o
     where o.token = ${input.token}
       and (o.to_address = ${input.hotWallet} or exists (select 1 from accounts a where a.deposit_address = o.to_address))`.execute(db);
  return BigInt(rows[0]!.total);
}

/** Tokens sent to the cold address whose transaction was signed and has not reverted. */
export async function coldSentMinor(db: Db, token: Token): Promise<bigint> {
  const { rows } = await sql<{ total: string }>`
    select coalesce(sum(c.amount), 0)::text as total from cold_transfers c
      join hot_wallet_outbox o on o.purpose = 'cold' and o.reference_id = c.id
     where c.token = ${token} and c.status in ('open', 'confirmed') and o.status <> 'reverted'`.execute(db);
  return BigInt(rows[0]!.total);
}
