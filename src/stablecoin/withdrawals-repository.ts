// SQL for withdrawals. Status changes are conditional on the row still being `pending` and are
// made with the row locked, so a withdrawal is completed, refunded or given up exactly once.
import { giveVolumeBack } from '../compliance/limits/limits-repository.js';
import { sql, type Selectable } from 'kysely';
import type { Address, Hash } from 'viem';
import type { Db } from '../db/database.js';
import type { WithdrawalsTable } from '../db/schema.js';
import type { Trx } from '../db/transaction.js';
import { limitVolumeOf, type Withdrawal, type WithdrawalStatus } from './withdrawal.js';

function toWithdrawal(row: Selectable<WithdrawalsTable>): Withdrawal {
  return {
    id: row.id,
    accountId: row.account_id,
    currency: row.currency,
    address: row.address as Address,
    grossMinor: row.gross,
    feeMinor: row.fee,
    netMinor: row.net,
    status: row.status,
    failureCode: row.failure_code,
    txHash: row.tx_hash as Hash | null,
    idempotencyKey: row.idempotency_key,
    createdAt: row.created_at,
    completedAt: row.completed_at,
  };
}

/** Inserts the record; null when the account already has a withdrawal under this idempotency key. */
export async function insertWithdrawal(trx: Trx, w: Withdrawal): Promise<Withdrawal | null> {
  const row = await trx
    .insertInto('withdrawals')
    .values({
      id: w.id,
      account_id: w.accountId,
      currency: w.currency,
      address: w.address,
      gross: w.grossMinor,
      fee: w.feeMinor,
      net: w.netMinor,
      status: w.status,
      failure_code: null,
      tx_hash: null,
      idempotency_key: w.idempotencyKey,
      created_at: w.createdAt,
      completed_at: null,
    })
    .onConflict((oc) => oc.columns(['account_id', 'idempotency_key']).doNothing())
    .returningAll()
    .executeTakeFirst();
  return row ? toWithdrawal(row) : null;
}

export async function findWithdrawal(db: Db | Trx, id: string): Promise<Withdrawal | undefined> {
  const row = await db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toWithdrawal(row) : undefined;
}

export async function findWithdrawalByIdempotencyKey(db: Db, accountId: number, key: string): Promise<Withdrawal | undefined> {
  const row = await db
    .selectFrom('withdrawals')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  return row ? toWithdrawal(row) : undefined;
}

/** Locks the row for the rest of `trx`; `skipLocked` for jobs that leave rows other workers hold. */
export async function lockWithdrawal(trx: Trx, id: string, options: { skipLocked?: boolean } = {}): Promise<Withdrawal | undefined> {
  let query = trx.selectFrom('withdrawals').selectAll().where('id', '=', id).forUpdate();
  if (options.skipLocked) query = query.skipLocked();
  const row = await query.executeTakeFirst();
  return row ? toWithdrawal(row) : undefined;
}

export async function setTxHash(db: Db, input: { id: string; txHash: Hash }): Promise<void> {
  await db.updateTable('withdrawals').set({ tx_hash: input.txHash }).where('id', '=', input.id).where('tx_hash', 'is', null).execute();
}

/**
 * Ends a pending withdrawal. A failure that happened before anything was signed also frees the
 * client's Idempotency-Key, so that a retry with the same key is a new withdrawal, not this refusal.
 */
export async function finishWithdrawal(
  trx: Trx,
  input: {
    id: string;
    status: Exclude<WithdrawalStatus, 'pending'>;
    failureCode: string | null;
    txHash: Hash | null;
    at: Date;
    releaseKey: boolean;
  },
): Promise<Withdrawal | null> {
  const row = await trx
    .updateTable('withdrawals')
    .set({
      status: input.status,
      failure_code: input.failureCode,
      completed_at: input.at,
      ...(input.txHash ? { tx_hash: input.txHash } : {}),
      ...(input.releaseKey ? { idempotency_key: null } : {}),
    })
    .where('id', '=', input.id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
  if (!row) return null;
  const finished = toWithdrawal(row);
  // Every failed withdrawal ends here: its gross goes back to the limits with the balance (decision 0036).
  if (finished.status === 'failed') await giveVolumeBack(trx, limitVolumeOf(finished));
  return finished;
}

/** Pending withdrawals whose chain transaction the outbox has found final, oldest first. */
export async function findResolvable(db: Db, limit: number): Promise<string[]> {
  const rows = await sql<{ id: string }>`
    select w.id from withdrawals w
      join hot_wallet_outbox o on o.purpose = 'withdrawal' and o.reference_id = w.id
     where w.status = 'pending' and o.status in ('confirmed', 'reverted')
     order by w.created_at
     limit ${limit}`.execute(db);
  return rows.rows.map((r) => r.id);
}

/** Marks a pending withdrawal as waiting for the hot wallet (kept from the first time). */
export async function markWaiting(db: Db, input: { id: string; at: Date }): Promise<void> {
  await db
    .updateTable('withdrawals')
    .set({ waiting_since: input.at })
    .where('id', '=', input.id)
    .where('status', '=', 'pending')
    .where('waiting_since', 'is', null)
    .execute();
}

/**
 * Pending withdrawals that have no outbox entry and either wait for the hot wallet or were created
 * before `before` (their request died before sending), oldest first: the order they are paid in.
 */
export async function findUnsent(db: Db, input: { before: Date; limit: number }): Promise<Withdrawal[]> {
  const rows = await sql<Selectable<WithdrawalsTable>>`
    select w.* from withdrawals w
     where w.status = 'pending' and (w.waiting_since is not null or w.created_at < ${input.before})
       and not exists (select 1 from hot_wallet_outbox o where o.purpose = 'withdrawal' and o.reference_id = w.id)
     order by w.created_at
     limit ${input.limit}`.execute(db);
  return rows.rows.map(toWithdrawal);
}

/** Waiting withdrawals older than `before` not yet reported to the operator; each is marked reported. */
export async function takeOverdueWaiting(
  db: Db,
  input: { before: Date; at: Date; limit: number },
): Promise<{ id: string; currency: string; net: bigint; createdAt: Date }[]> {
  const rows = await sql<{ id: string; currency: string; net: string; created_at: Date }>`
    update withdrawals set wait_reported_at = ${input.at}
     where id in (
       select w.id from withdrawals w
        where w.status = 'pending' and w.waiting_since is not null and w.wait_reported_at is null and w.created_at < ${input.before}
          and not exists (select 1 from hot_wallet_outbox o where o.purpose = 'withdrawal' and o.reference_id = w.id)
        order by w.created_at
        limit ${input.limit}
        for update skip locked)
    returning id, currency, net::text as net, created_at`.execute(db);
  return rows.rows.map((r) => ({ id: r.id, currency: r.currency, net: BigInt(r.net), createdAt: new Date(r.created_at) }));
}

/** The first completed withdrawal's address becomes the default, unless one is saved (DESIGN §6). */
export async function saveDefaultAddressIfNone(trx: Trx, input: { accountId: number; address: string; at: Date }): Promise<void> {
  await trx
    .insertInto('withdrawal_addresses')
    .values({ account_id: input.accountId, address: input.address, updated_at: input.at })
    .onConflict((oc) => oc.column('account_id').doNothing())
    .execute();
}

/** Whether `address` is a peerpay user's deposit address (stored checksummed, unique). */
export async function isDepositAddress(db: Db, address: string): Promise<boolean> {
  const row = await db.selectFrom('accounts').select('id').where('deposit_address', '=', address).executeTakeFirst();
  return row !== undefined;
}
