// SQL for the hot wallet outbox and the per-sender nonce counter. Status changes are conditional on
// the status they leave, so two workers that observe the same outcome record it once.
import { sql, type Selectable } from 'kysely';
import type { Address, Hash, Hex } from 'viem';
import type { Db } from '../../db/database.js';
import type { HotWalletOutboxTable } from '../../db/schema.js';
import type { Trx } from '../../db/transaction.js';
import type { AnyOutboxRecord, CircleOutboxRecord, OutboxPurpose, OutboxRecord, OutboxStatus } from './outbox-entry.js';

const MAX_ERROR_LENGTH = 500;

function toRecord(row: Selectable<HotWalletOutboxTable>): AnyOutboxRecord {
  return row.provider === 'circle' ? toCircleRecord(row) : toSelfRecord(row);
}

function toSelfRecord(row: Selectable<HotWalletOutboxTable>): OutboxRecord {
  return {
    provider: 'self',
    id: row.id,
    purpose: row.purpose,
    referenceId: row.reference_id,
    sender: row.sender as Address,
    nonce: Number(row.nonce!),
    txHash: row.tx_hash! as Hash,
    rawTx: row.raw_tx! as Hex,
    status: row.status,
    blockNumber: row.block_number === null ? null : BigInt(row.block_number),
    broadcastAttempts: row.broadcast_attempts,
    lastBroadcastAt: row.last_broadcast_at,
    createdAt: row.created_at,
    currentSince: row.current_since ?? row.created_at,
  };
}

function toCircleRecord(row: Selectable<HotWalletOutboxTable>): CircleOutboxRecord {
  return {
    provider: 'circle',
    id: row.id,
    purpose: row.purpose,
    referenceId: row.reference_id,
    sender: row.sender as Address,
    walletId: row.circle_wallet_id!,
    token: row.circle_token!,
    destination: row.circle_destination! as Address,
    amountMinor: BigInt(row.circle_amount!),
    circleTransactionId: row.circle_transaction_id,
    status: row.status,
    txHash: row.tx_hash as Hash | null,
    blockNumber: row.block_number === null ? null : BigInt(row.block_number),
    lastBroadcastAt: row.last_broadcast_at,
    createdAt: row.created_at,
  };
}

export async function findRecord(db: Db | Trx, ref: { purpose: OutboxPurpose; referenceId: string }): Promise<AnyOutboxRecord | undefined> {
  const row = await db
    .selectFrom('hot_wallet_outbox')
    .selectAll()
    .where('purpose', '=', ref.purpose)
    .where('reference_id', '=', ref.referenceId)
    .executeTakeFirst();
  return row ? toRecord(row) : undefined;
}

/**
 * Locks the sender's nonce row for the rest of `trx` and returns its next nonce. The first use
 * creates the row from `chainPendingNonce`; a concurrent first use waits on the insert and then
 * reads the row the other one made.
 */
export async function lockNextNonce(trx: Trx, sender: Address, chainPendingNonce: number): Promise<number> {
  await trx
    .insertInto('chain_nonces')
    .values({ sender, next_nonce: BigInt(chainPendingNonce) })
    .onConflict((oc) => oc.column('sender').doNothing())
    .execute();
  const row = await trx.selectFrom('chain_nonces').select('next_nonce').where('sender', '=', sender).forUpdate().executeTakeFirstOrThrow();
  return Number(row.next_nonce);
}

export async function setNextNonce(trx: Trx, sender: Address, nextNonce: number): Promise<void> {
  await trx
    .updateTable('chain_nonces')
    .set({ next_nonce: BigInt(nextNonce) })
    .where('sender', '=', sender)
    .execute();
}

export async function insertSigned(
  trx: Trx,
  entry: { id: string; purpose: OutboxPurpose; referenceId: string; sender: Address; nonce: number; txHash: Hash; rawTx: Hex; now: Date },
): Promise<OutboxRecord> {
  const row = await trx
    .insertInto('hot_wallet_outbox')
    .values({
      id: entry.id,
      purpose: entry.purpose,
      reference_id: entry.referenceId,
      sender: entry.sender,
      nonce: BigInt(entry.nonce),
      tx_hash: entry.txHash.toLowerCase(),
      raw_tx: entry.rawTx,
      status: 'signed',
      created_at: entry.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toSelfRecord(row);
}

/** A node took the transaction (or already had it). */
export async function markBroadcast(db: Db, input: { id: string; at: Date }): Promise<void> {
  await db
    .updateTable('hot_wallet_outbox')
    .set((eb) => ({
      status: sql<OutboxStatus>`case when status = 'signed' then 'broadcast' else status end`,
      broadcast_attempts: eb('broadcast_attempts', '+', 1),
      last_broadcast_at: input.at,
      last_error: null,
    }))
    .where('id', '=', input.id)
    .execute();
}

export async function recordBroadcastError(db: Db, input: { id: string; at: Date; error: string }): Promise<void> {
  await db
    .updateTable('hot_wallet_outbox')
    .set((eb) => ({
      broadcast_attempts: eb('broadcast_attempts', '+', 1),
      last_broadcast_at: input.at,
      last_error: input.error.slice(0, MAX_ERROR_LENGTH),
    }))
    .where('id', '=', input.id)
    .execute();
}

/**
 * Records the final outcome; false when another worker recorded it first. `mined` names the
 * transaction that was mined when it is one the entry had replaced: it becomes the entry's again.
 */
export async function finishEntry(
  db: Db,
  input: { id: string; status: 'confirmed' | 'reverted'; blockNumber: bigint; at: Date; mined?: { txHash: Hash; rawTx: Hex } },
): Promise<boolean> {
  const result = await db
    .updateTable('hot_wallet_outbox')
    .set({
      status: input.status,
      block_number: input.blockNumber,
      finished_at: input.at,
      locked_until: null,
      ...(input.mined ? { tx_hash: input.mined.txHash.toLowerCase(), raw_tx: input.mined.rawTx } : {}),
    })
    .where('id', '=', input.id)
    .where('status', 'in', ['signed', 'broadcast'])
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The transactions this entry replaced (stuck ones), any of which may still be mined. */
export async function replacedTransactions(db: Db, outboxId: string): Promise<{ txHash: Hash; rawTx: Hex }[]> {
  const rows = await db
    .selectFrom('hot_wallet_outbox_replaced')
    .select(['tx_hash', 'raw_tx'])
    .where('outbox_id', '=', outboxId)
    .orderBy('replaced_at')
    .execute();
  return rows.map((r) => ({ txHash: r.tx_hash as Hash, rawTx: r.raw_tx as Hex }));
}

/**
 * Makes `next` the entry's current transaction, keeping the one it replaces; only if the entry
 * still has `previous` as its current one and is not final (two workers replace once).
 */
export async function replaceCurrent(
  db: Db,
  input: { id: string; previous: { txHash: Hash; rawTx: Hex }; next: { txHash: Hash; rawTx: Hex }; at: Date },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('hot_wallet_outbox')
      .set({ tx_hash: input.next.txHash.toLowerCase(), raw_tx: input.next.rawTx, current_since: input.at, last_broadcast_at: null })
      .where('id', '=', input.id)
      .where('tx_hash', '=', input.previous.txHash.toLowerCase())
      .where('status', 'in', ['signed', 'broadcast'])
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return false;
    await trx
      .insertInto('hot_wallet_outbox_replaced')
      .values({ tx_hash: input.previous.txHash.toLowerCase(), outbox_id: input.id, raw_tx: input.previous.rawTx, replaced_at: input.at })
      .execute();
    return true;
  });
}

/** Mined but not yet confirmed enough: remember the block (and that a node has it). */
export async function markMined(db: Db, input: { id: string; blockNumber: bigint }): Promise<void> {
  await db
    .updateTable('hot_wallet_outbox')
    .set({ status: 'broadcast', block_number: input.blockNumber })
    .where('id', '=', input.id)
    .where('status', 'in', ['signed', 'broadcast'])
    .execute();
}

export async function releaseLease(db: Db, id: string): Promise<void> {
  await db.updateTable('hot_wallet_outbox').set({ locked_until: null }).where('id', '=', id).execute();
}

/** Gives back every lease that ends at one of `untils` (the lease ends of one worker's rounds). */
export async function releaseLeasesEnding(db: Db, untils: readonly Date[]): Promise<void> {
  await db.updateTable('hot_wallet_outbox').set({ locked_until: null }).where('locked_until', 'in', untils).execute();
}

/**
 * Leases up to `limit` unfinished entries that no other worker holds (FOR UPDATE SKIP LOCKED in one
 * short statement; see db/lease.ts for the pattern), lowest nonce first, until `until`.
 */
export async function leaseOpenEntries(db: Db, input: { now: Date; until: Date; limit: number }): Promise<AnyOutboxRecord[]> {
  const result = await sql<Selectable<HotWalletOutboxTable>>`
    update hot_wallet_outbox set locked_until = ${input.until}
     where id in (
       select id from hot_wallet_outbox
        where status in ('signed', 'broadcast') and (locked_until is null or locked_until < ${input.now})
        order by sender, nonce
        limit ${input.limit}
        for update skip locked)
    returning *`.execute(db);
  // Circle's entries have no nonce: after the hot wallet's, oldest first.
  const nonceOf = (r: AnyOutboxRecord) => (r.provider === 'self' ? r.nonce : Number.MAX_SAFE_INTEGER);
  return result.rows.map(toRecord).sort((a, b) => nonceOf(a) - nonceOf(b) || a.createdAt.getTime() - b.createdAt.getTime());
}
